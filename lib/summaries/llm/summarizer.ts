// Summaries by a language model, whoever serves it (Bedrock, an OpenAI-compatible server: see
// ChatModel). A transcript that does not fit the model's context is summarised in parts (map)
// whose summaries are then combined (reduce, recursively when even they do not fit). Nothing is
// ever cut off to make it fit. Key points come back with the summary and are checked against
// the transcript (key-points.ts).
import { createHash, randomBytes } from 'node:crypto';
import {
  BadGatewayError,
  GatewayTimeoutError,
  ServiceUnavailableError,
  UnprocessableError,
} from '../../errors';
import type { Transcript } from '../../youtube/types';
import {
  anchorKeyPoints,
  type ClaimedKeyPoint,
  type KeyPoint,
  keyPointCount,
  parseAnswer,
} from '../key-points';
import type { CallResult, JobHooks, SummarizeInput, Summarizer, SummaryResult } from '../types';
import {
  formatTimestamp,
  type PromptContext,
  type Step,
  stampedUnits,
  systemPrompt,
  userPrompt,
} from './prompt';

/**
 * What a client is told when a model call fails, whichever provider served it: the same problem
 * types and words for Bedrock and OpenAI-compatible servers (each says more in its own log).
 */
export const modelProblems = {
  noSummary: () => new BadGatewayError('model-error', 'The model returned no summary.'),
  timeout: (cause: unknown) =>
    new GatewayTimeoutError(
      'model-timeout',
      'The model did not answer in time; try a shorter summary or try again later.',
      { cause },
    ),
  throttled: (retryAfterSeconds: number, cause: unknown) =>
    new ServiceUnavailableError(
      'model-throttled',
      'The model is receiving too many requests; try again shortly.',
      retryAfterSeconds,
      { cause },
    ),
  unavailable: (retryAfterSeconds: number, cause: unknown) =>
    new ServiceUnavailableError(
      'model-unavailable',
      'The model is temporarily unavailable; try again shortly.',
      retryAfterSeconds,
      { cause },
    ),
  failed: (cause: unknown) =>
    new BadGatewayError('model-error', 'The model could not produce a summary.', { cause }),
};

/** What the planning needs to know of a model. */
export interface ModelLimits {
  name: string;
  /** Input + output tokens the model accepts in one call. */
  contextTokens: number;
  /** Largest answer (max tokens) the model accepts. */
  maxOutputTokens: number;
  /** Output tokens kept free for reasoning the model may do before it answers. */
  reasoningReserveTokens: number;
}

/** One call to a model. */
export interface ChatRequest {
  system: string;
  user: string;
  maxTokens: number;
  /** Which step of a summary this is, for the logs. */
  step: Step['kind'];
}

export interface ChatAnswer {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * A model behind some API. `complete` makes one call (retrying what its API deems transient)
 * and throws HttpErrors: 503 (throttled, unavailable; with Retry-After), 504 (deadline), 502
 * (refused, failed, or no text).
 */
export interface ChatModel {
  complete(request: ChatRequest, signal: AbortSignal): Promise<ChatAnswer>;
}

export interface LlmSummarizerOptions {
  chat: ChatModel;
  limits: ModelLimits;
  /** Parts summarised at the same time for long transcripts. */
  concurrency: number;
}

/** Low, not zero: summaries should be stable, but a little freedom reads more naturally. */
export const TEMPERATURE = 0.2;
/** Words of summary asked for per part in the map step, at most and at least. */
export const PART_WORDS_MAX = 800;
export const PART_WORDS_MIN = 60;
/** Reduce levels before we give up (each level divides the text by several times). */
const MAX_REDUCE_LEVELS = 6;
/** Below this many tokens of room for transcript text per call, chunking is pointless. */
const MIN_DATA_TOKENS = 200;
/** Tokens of answer per key point asked for (a sentence and its time). */
const TOKENS_PER_KEY_POINT = 40;

/**
 * Conservative token estimate: 3 characters per token. English averages about 4 with most
 * tokenizers, newer Claude tokenizers produce ~30% more; over-estimating only costs an extra part.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/**
 * Max tokens for an answer of about `words` words and `keyPoints` key points: ~1.5 tokens per
 * word plus a margin so the model can finish its last sentence, plus the model's reasoning
 * reserve, capped at its limit.
 */
export function maxTokensFor(words: number, limits: ModelLimits, keyPoints = 0): number {
  const wanted =
    Math.ceil(words * 1.5) + 150 + keyPoints * TOKENS_PER_KEY_POINT + limits.reasoningReserveTokens;
  return Math.min(limits.maxOutputTokens, wanted);
}

/** The most words a model can be asked for without max tokens hitting its output limit. */
function maxWordsFor(limits: ModelLimits): number {
  return Math.max(
    1,
    Math.floor((limits.maxOutputTokens - 150 - limits.reasoningReserveTokens) / 1.5),
  );
}

/**
 * Splits text units (caption segments) into parts of at most `maxTokens` estimated tokens each,
 * on unit boundaries where possible, else on sentence, else on word boundaries. Parts come out of
 * similar size; joined with spaces they contain every word of the input, in order.
 */
export function splitIntoParts(units: readonly string[], maxTokens: number): string[] {
  const pieces: string[] = [];
  for (const unit of units) {
    const text = unit.trim();
    if (text !== '') pieces.push(...breakDown(text, maxTokens));
  }
  const cost = (piece: string) => estimateTokens(piece) + 1;
  const total = pieces.reduce((sum, piece) => sum + cost(piece), 0);
  // Aim for equal parts rather than filling each to the brim and leaving a tiny last one.
  const target = Math.ceil(total / Math.max(1, Math.ceil(total / maxTokens)));
  const parts: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (current.length > 0 && size + cost(piece) > maxTokens) {
      parts.push(current.join(' '));
      current = [];
      size = 0;
    }
    current.push(piece);
    size += cost(piece);
    if (size >= target) {
      parts.push(current.join(' '));
      current = [];
      size = 0;
    }
  }
  if (current.length > 0) parts.push(current.join(' '));
  return parts;
}

/** A unit too large for one part, cut on sentence ends, then on spaces if a sentence is too. */
function breakDown(text: string, maxTokens: number): string[] {
  if (estimateTokens(text) + 1 <= maxTokens) return [text];
  const sentences = text.split(/(?<=[.!?…])\s+/).filter(Boolean);
  if (sentences.length > 1) return sentences.flatMap((sentence) => breakDown(sentence, maxTokens));
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let current: string[] = [];
  for (const word of words) {
    if (current.length > 0 && estimateTokens([...current, word].join(' ')) + 1 > maxTokens) {
      out.push(current.join(' '));
      current = [];
    }
    current.push(word);
  }
  if (current.length > 0) out.push(current.join(' '));
  return out;
}

/** Runs `fn` over items with at most `limit` in flight (p-limit is not a dependency, and this
 * is all we need). The first failure aborts the others (no point paying for parts of a summary
 * that will not be delivered) and is the error thrown. */
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const siblings = new AbortController();
  const linked = AbortSignal.any([signal, siblings.signal]);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index, linked);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          siblings.abort();
        }
      }
    }
  };
  const workers = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

/** Packs labelled summaries into consecutive groups of at most `budget` estimated tokens. */
function groupConsecutive(
  items: readonly string[],
  budget: number,
): { first: number; last: number; items: string[] }[] {
  const groups: { first: number; last: number; items: string[] }[] = [];
  let current: string[] = [];
  let size = 0;
  let first = 1;
  items.forEach((item, index) => {
    const cost = estimateTokens(item) + 1;
    if (current.length > 0 && size + cost > budget) {
      groups.push({ first, last: index, items: current });
      current = [];
      size = 0;
      first = index + 1;
    }
    current.push(item);
    size += cost;
  });
  if (current.length > 0) groups.push({ first, last: items.length, items: current });
  return groups;
}

/** A part's answer as the combine step reads it: its summary, then its checked key points. */
function renderPart(summary: string, keyPoints: readonly KeyPoint[]): string {
  if (keyPoints.length === 0) return summary;
  const lines = keyPoints.map((point) => `[${formatTimestamp(point.startMs)}] ${point.text}`);
  return [summary, 'Key points:', ...lines].join('\n');
}

/** Same length as the real markers: only sizes matter where this is used. */
const PLANNING_TAG = 'data-000000000000';

/**
 * A Summarizer over one model. Cheap to create, so one may be made per request for the model
 * the request names. Its `summarize` throws what the ChatModel throws, and 422 for an empty
 * transcript.
 */
export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer {
  const { chat, limits } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  // Keeps a safety margin of the context free for estimation error.
  const margin = Math.max(256, Math.ceil(limits.contextTokens * 0.02));
  const partWordsMax = Math.min(PART_WORDS_MAX, maxWordsFor(limits));
  const clampWords = (words: number) =>
    Math.max(Math.min(PART_WORDS_MIN, partWordsMax), Math.min(partWordsMax, words));

  /** Key points asked for in one step: the summary's count for the final answer. */
  const pointsFor = (step: Step, context: PromptContext) =>
    context.keyPoints === 0 ? 0 : Math.min(context.keyPoints, keyPointCount(step.words));

  /** Room for the data body in one call of this step. */
  const dataBudget = (step: Step, context: PromptContext) => {
    const stepContext = { ...context, keyPoints: pointsFor(step, context) };
    return (
      limits.contextTokens -
      maxTokensFor(step.words, limits, stepContext.keyPoints) -
      estimateTokens(systemPrompt(PLANNING_TAG, step, stepContext)) -
      estimateTokens(userPrompt(step, PLANNING_TAG, stepContext, '')) -
      // The message framing and role tokens the estimate does not see.
      50 -
      margin
    );
  };

  /**
   * What identifies a call across runs of one summary: its step, what it asks for, and its
   * data. The same plan over the same transcript (and, for combinations, over the same part
   * summaries, which checkpoints replay) gives the same keys; anything else misses.
   */
  function callKey(step: Step, context: PromptContext, body: string): string {
    const asked = JSON.stringify([step, pointsFor(step, context), context.summaryLanguage ?? '']);
    const hash = createHash('sha256').update(asked).update('\n').update(body).digest('base64url');
    return `${step.kind === 'part' ? 'p' : 'c'}${hash.slice(0, 22)}`;
  }

  /** What every call of one summary shares. */
  interface Run {
    context: PromptContext;
    transcript: Transcript;
    signal: AbortSignal;
    usage: (answer: Pick<ChatAnswer, 'inputTokens' | 'outputTokens'>) => void;
    job: JobHooks | undefined;
  }

  /**
   * One call: the answer's summary and the key points the transcript bears out. Inside a job,
   * a call an earlier run finished is not made again, and a finished call is kept.
   */
  async function call(
    run: Run,
    step: Step,
    body: string,
    signal = run.signal,
  ): Promise<{ summary: string; keyPoints: KeyPoint[] }> {
    const { context, job } = run;
    const key = job ? callKey(step, context, body) : '';
    const recalled = job?.recall(key);
    if (recalled) {
      run.usage(recalled);
      return { summary: recalled.summary, keyPoints: recalled.keyPoints };
    }
    await job?.beforeCall();
    const tag = `data-${randomBytes(6).toString('hex')}`;
    const stepContext = { ...context, keyPoints: pointsFor(step, context) };
    const answer = await chat.complete(
      {
        system: systemPrompt(tag, step, stepContext),
        user: userPrompt(step, tag, stepContext, body),
        maxTokens: maxTokensFor(step.words, limits, stepContext.keyPoints),
        step: step.kind,
      },
      signal,
    );
    run.usage(answer);
    const parsed = parseAnswer(answer.text);
    const claimed: ClaimedKeyPoint[] = stepContext.keyPoints > 0 ? parsed.keyPoints : [];
    const keyPoints = anchorKeyPoints(claimed, run.transcript);
    // An answer of key points alone still says what the video is about.
    const summary = parsed.summary || parsed.keyPoints.map((point) => point.text).join(' ');
    if (job) {
      const result: CallResult = { summary, keyPoints };
      if (answer.inputTokens !== undefined) result.inputTokens = answer.inputTokens;
      if (answer.outputTokens !== undefined) result.outputTokens = answer.outputTokens;
      await job.remember(key, result, step.kind !== 'combine');
    }
    return { summary, keyPoints };
  }

  async function reduce(
    run: Run,
    parts: readonly string[],
    targetWords: number,
    level: number,
  ): Promise<{ summary: string; keyPoints: KeyPoint[] }> {
    const { context } = run;
    const total = parts.length;
    const labelled = parts.map((part, index) => `[Part ${index + 1}]\n${part}`);
    const final: Step = {
      kind: 'combine',
      words: targetWords,
      first: 1,
      last: total,
      total,
      final: true,
    };
    const body = labelled.join('\n\n');
    if (estimateTokens(body) <= dataBudget(final, context)) return call(run, final, body);
    const probe: Step = { ...final, words: partWordsMax, final: false };
    const groups = groupConsecutive(labelled, dataBudget(probe, context));
    if (groups.length >= total || level >= MAX_REDUCE_LEVELS) {
      throw new Error(
        `model ${limits.name}: context of ${limits.contextTokens} tokens is too small to combine ` +
          `${total} partial summaries; raise contextTokens or choose another model`,
      );
    }
    const words = clampWords(Math.ceil((1.5 * targetWords) / groups.length));
    const next = await mapBounded(groups, concurrency, run.signal, async (group, _index, inner) => {
      const step: Step = {
        kind: 'combine',
        words,
        first: group.first,
        last: group.last,
        total,
        final: false,
      };
      const result = await call(run, step, group.items.join('\n\n'), inner);
      return renderPart(result.summary, result.keyPoints);
    });
    return reduce(run, next, targetWords, level + 1);
  }

  async function summarize(input: SummarizeInput): Promise<SummaryResult> {
    const { transcript, metadata, targetWords, signal, job } = input;
    const units = stampedUnits(transcript);
    if (units.length === 0) {
      throw new UnprocessableError(
        'transcript-empty',
        'Empty transcript',
        'The video has no transcript text to summarise.',
      );
    }
    const context: PromptContext = {
      metadata,
      keyPoints: input.keyPoints === false ? 0 : keyPointCount(targetWords),
      ...(input.summaryLanguage === undefined ? {} : { summaryLanguage: input.summaryLanguage }),
    };
    let inputTokens: number | null = null;
    let outputTokens: number | null = null;
    const usage: Run['usage'] = (answer) => {
      if (answer.inputTokens !== undefined) inputTokens = (inputTokens ?? 0) + answer.inputTokens;
      if (answer.outputTokens !== undefined) {
        outputTokens = (outputTokens ?? 0) + answer.outputTokens;
      }
    };
    const run: Run = { context, transcript, signal, usage, job };
    const text = units.join(' ');

    const whole: Step = { kind: 'whole', words: targetWords };
    if (estimateTokens(text) <= dataBudget(whole, context)) {
      await job?.progress('summarizing', 1, job.recall(callKey(whole, context, text)) ? 1 : 0);
      const result = await call(run, whole, text);
      return { ...result, chunks: 1, inputTokens, outputTokens };
    }

    // Size parts for the longest per-part answer we may ask for, so the budget holds whatever
    // the final part count turns out to be.
    const probe: Step = { kind: 'part', words: partWordsMax, index: 0, count: 1 };
    const budget = dataBudget(probe, context);
    if (budget < MIN_DATA_TOKENS) {
      throw new Error(
        `model ${limits.name}: context of ${limits.contextTokens} tokens leaves no room for ` +
          'transcript text; raise contextTokens or choose another model',
      );
    }
    const parts = splitIntoParts(units, budget);
    const words = clampWords(Math.ceil((1.5 * targetWords) / parts.length));
    const stepOf = (index: number): Step => ({ kind: 'part', words, index, count: parts.length });
    if (job) {
      const recalled = parts.filter((part, index) =>
        job.recall(callKey(stepOf(index), context, part)),
      );
      await job.progress('summarizing', parts.length, recalled.length);
    }
    const partials = await mapBounded(parts, concurrency, signal, async (part, index, inner) => {
      const result = await call(run, stepOf(index), part, inner);
      return renderPart(result.summary, result.keyPoints);
    });
    await job?.progress('combining', parts.length, parts.length);
    const result = await reduce(run, partials, targetWords, 1);
    return { ...result, chunks: parts.length, inputTokens, outputTokens };
  }

  return { summarize };
}
