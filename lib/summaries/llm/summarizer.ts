// Summaries by a language model, whoever serves it (Bedrock, an OpenAI-compatible server: see
// ChatModel). A transcript that does not fit the model's context is summarised in parts (map)
// whose summaries are then combined (reduce, recursively when even they do not fit). Nothing is
// ever cut off to make it fit. Key points come back with the summary and are checked against
// the transcript (key-points.ts); so do chapters, asked of the calls that read the transcript
// (chapter-asks.ts) and put together once they are done (chapters/finish.ts).
import { createHash, randomBytes } from 'node:crypto';
import { UnprocessableError } from '../../errors';
import { cutText } from '../../text';
import type { Transcript } from '../../youtube/types';
import { type ChapterStart, chapterSummary, NO_CHAPTERS } from '../chapters/chapter';
import { modelChapters } from '../chapters/finish';
import { splitChapters } from '../chapters/model';
import {
  anchorKeyPoints,
  type ClaimedKeyPoint,
  type KeyPoint,
  keyPointCount,
  parseAnswer,
} from '../key-points';
import { formatTimestamp } from '../timed-line';
import type { CallResult, JobHooks, SummarizeInput, Summarizer, SummaryResult } from '../types';
import {
  askFor,
  type ChapterPlan,
  chapterPlan,
  checkChapters,
  partAsks,
  probeAsk,
} from './chapter-asks';
import type { ChatAnswer, ChatModel } from './chat';
import { modelProblems } from './failures';
import { spansOf, splitAtChapters } from './parts';
import {
  estimateTokens,
  MIN_DATA_TOKENS,
  type ModelLimits,
  maxTokensFor,
  plannerFor,
  SummaryLengthError,
  splitIntoParts,
} from './plan';
import {
  type ChapterAsk,
  chaptersAsked,
  type PromptContext,
  type Step,
  systemPrompt,
  timedUnits,
  userPrompt,
} from './prompt';

export type { ChatAnswer, ChatModel, ChatRequest } from './chat';
export type { ModelLimits } from './plan';

export interface LlmSummarizerOptions {
  chat: ChatModel;
  limits: ModelLimits;
  /** Parts summarised at the same time for long transcripts. */
  concurrency: number;
}

/** Reduce levels before we give up (each level divides the text by several times). */
const MAX_REDUCE_LEVELS = 6;
/**
 * Characters an answer may have per token of its max tokens before it is refused: a model keeps
 * to max tokens, and even long tokens are far shorter, so only a broken or hostile server sends
 * more (a 10 MB answer must not become a 10 MB summary, cached and replayed).
 */
const MAX_CHARS_PER_TOKEN = 16;
/** A summary is cut (at a sentence end) past this many times the words asked for... */
const SUMMARY_WORDS_FACTOR = 2;
/** ...or past this many characters per word asked for (scripts written without spaces). */
const SUMMARY_CHARS_PER_WORD = 16;
/** A key point is one sentence: longer ones are cut. */
const KEY_POINT_CHARS = 300;
/** A chapter's summary is one to three sentences (chapterSummary), and is cut past these. */
const CHAPTER_SUMMARY_WORDS = 80;
const CHAPTER_SUMMARY_CHARS = 600;
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

/**
 * A Summarizer over one model. Cheap to create, so one may be made per request for the model
 * the request names. Its `summarize` throws what the ChatModel throws, 502 for an answer far
 * longer than asked, and 422 for an empty transcript or a summary longer than the model can
 * make of it (summary-length-unsupported, with the longest it can).
 */
export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer {
  const { chat, limits } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const { partWordsMax, clampWords, pointsFor, dataBudget, metadataChars, ...planner } =
    plannerFor(limits);

  /**
   * What identifies a call across runs of one summary: its step, what it asks for, and its
   * data. The same plan over the same transcript (and, for combinations, over the same part
   * summaries, which checkpoints replay) gives the same keys; anything else misses.
   */
  function callKey(step: Step, context: PromptContext, body: string): string {
    const asked = JSON.stringify([
      step,
      pointsFor(step, context),
      context.summaryLanguage ?? '',
      ...(context.chapters ? [context.chapters] : []),
    ]);
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
    /** The summary asked for, in words. */
    targetWords: number;
    /** Model calls this summary may still make, and has made. */
    callsLeft: number;
    callsMade: number;
    /** What its calls are asked about chapters. */
    chapters: ChapterPlan;
  }

  /** What one call gave: its summary and the key points and chapters that held up. */
  interface Answer {
    summary: string;
    keyPoints: KeyPoint[];
    chapters: ChapterStart[];
  }

  /** The context of a call asked `ask` about chapters. */
  const askingFor = (run: Run, ask: ChapterAsk | undefined): PromptContext =>
    ask ? { ...run.context, chapters: ask } : run.context;

  /** The 422 for a summary whose part summaries (`bodyTokens`) its final step cannot hold. */
  function tooLongFor(run: Run, bodyTokens: number, why: string): SummaryLengthError {
    const longest = planner.shorterThan(run.targetWords, bodyTokens, run.context);
    return new SummaryLengthError(limits.name, run.targetWords, longest, why);
  }

  /**
   * One call: the answer's summary and the key points the transcript bears out, each within
   * what was asked. Inside a job, a call an earlier run finished is not made again, and a
   * finished call is kept.
   */
  async function call(
    run: Run,
    step: Step,
    body: string,
    signal = run.signal,
    ask?: ChapterAsk,
  ): Promise<Answer> {
    const { job } = run;
    const context = askingFor(run, ask);
    const key = job ? callKey(step, context, body) : '';
    const recalled = job?.recall(key);
    if (recalled) {
      run.usage(recalled);
      const { summary, keyPoints, chapters = [] } = recalled;
      return { summary, keyPoints, chapters };
    }
    if (run.callsLeft <= 0) {
      throw tooLongFor(
        run,
        estimateTokens(body),
        `its part summaries cannot be combined within ${run.callsMade} calls`,
      );
    }
    run.callsLeft--;
    run.callsMade++;
    await job?.beforeCall();
    const tag = `data-${randomBytes(6).toString('hex')}`;
    // The description and chapters get what the model's context leaves beside this data.
    const stepContext = {
      ...context,
      keyPoints: pointsFor(step, context),
      metadataChars: metadataChars(step, context, body),
    };
    const maxTokens = maxTokensFor(
      step.words,
      limits,
      stepContext.keyPoints,
      chaptersAsked(stepContext),
    );
    const answer = await chat.complete(
      {
        system: systemPrompt(tag, step, stepContext),
        user: userPrompt(step, tag, stepContext, body),
        maxTokens,
        step: step.kind,
      },
      signal,
    );
    run.usage(answer);
    if (answer.text.length > MAX_CHARS_PER_TOKEN * maxTokens) throw modelProblems.tooLong();
    const split = ask ? splitChapters(answer.text) : { rest: answer.text, chapters: [] };
    const parsed = parseAnswer(split.rest);
    const chapters = ask
      ? checkChapters(ask, split.chapters, run.transcript, run.chapters.endMs, (text) =>
          cutText(chapterSummary(text), CHAPTER_SUMMARY_WORDS, CHAPTER_SUMMARY_CHARS),
        )
      : [];
    const claimed: ClaimedKeyPoint[] = parsed.keyPoints
      .slice(0, stepContext.keyPoints)
      .map((point) => ({ ...point, text: cutText(point.text, Infinity, KEY_POINT_CHARS) }));
    const keyPoints = anchorKeyPoints(claimed, run.transcript);
    // An answer of key points alone still says what the video is about.
    const said = parsed.summary || parsed.keyPoints.map((point) => point.text).join(' ');
    const summary = cutText(
      said,
      Math.max(50, SUMMARY_WORDS_FACTOR * step.words),
      Math.max(800, SUMMARY_CHARS_PER_WORD * step.words),
    );
    if (job) {
      const result: CallResult = { summary, keyPoints };
      if (ask) result.chapters = chapters;
      if (answer.inputTokens !== undefined) result.inputTokens = answer.inputTokens;
      if (answer.outputTokens !== undefined) result.outputTokens = answer.outputTokens;
      await job.remember(key, result, step.kind !== 'combine');
    }
    return { summary, keyPoints, chapters };
  }

  async function reduce(run: Run, parts: readonly string[], level: number): Promise<Answer> {
    const { context, targetWords } = run;
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
      // The part summaries came out longer than planned: a shorter summary asks for less.
      throw tooLongFor(
        run,
        estimateTokens(body),
        'its part summaries do not fit the model’s context',
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
    return reduce(run, next, level + 1);
  }

  async function summarize(input: SummarizeInput): Promise<SummaryResult> {
    const { transcript, metadata, targetWords, signal, job } = input;
    const units = timedUnits(transcript);
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
    const plan = chapterPlan(input);
    const run: Run = {
      context,
      transcript,
      signal,
      usage,
      job,
      targetWords,
      callsLeft: 1,
      callsMade: 0,
      chapters: plan,
    };
    const texts = units.map((unit) => unit.text);
    const text = texts.join(' ');
    /** The chapters of the calls' answers, put together (or made offline). */
    const chaptersOf = async (made: ChapterStart[]) =>
      input.chapters === false
        ? NO_CHAPTERS
        : modelChapters({ transcript, made, creator: plan.creator, endMs: plan.endMs, signal });

    const whole: Step = { kind: 'whole', words: targetWords };
    if (estimateTokens(text) <= dataBudget(whole, context)) {
      // Chapters are asked of the call when they fit beside the transcript; else they are made
      // offline rather than cost the calls of a summary in parts.
      const asked = askFor(plan, 0, plan.endMs);
      const ask =
        estimateTokens(text) <= dataBudget(whole, askingFor(run, asked)) ? asked : undefined;
      const wholeContext = askingFor(run, ask);
      await job?.progress('summarizing', 1, job.recall(callKey(whole, wholeContext, text)) ? 1 : 0);
      const result = await call(run, whole, text, signal, ask);
      const chapters = await chaptersOf(result.chapters);
      return { ...result, chapters, chunks: 1, inputTokens, outputTokens };
    }

    // Size parts for the longest per-part answer we may ask for, so the budget holds whatever
    // the final part count turns out to be.
    const probe: Step = { kind: 'part', words: partWordsMax, index: 0, count: 1 };
    const plain = dataBudget(probe, context);
    const longest = planner.longestSummary(metadata);
    if (plain < MIN_DATA_TOKENS || targetWords > longest) {
      // Known before any call: this video's parts and this length do not fit the model.
      throw new SummaryLengthError(limits.name, targetWords, longest);
    }
    const cut = (budget: number) =>
      (plan.creator.length > 0 &&
        splitAtChapters(
          units,
          budget,
          plan.creator.map((chapter) => chapter.startMs),
        )) ||
      splitIntoParts(texts, budget);
    const stepFor = (count: number, index: number): Step => ({
      kind: 'part',
      words: clampWords(Math.ceil((1.5 * targetWords) / count)),
      index,
      count,
    });
    /** Whether each part's call, asked its chapters, still holds the part. */
    const holds = (parts: readonly string[], asks: readonly (ChapterAsk | undefined)[]) =>
      parts.every(
        (part, index) =>
          asks[index] === undefined ||
          estimateTokens(part) <=
            dataBudget(stepFor(parts.length, index), askingFor(run, asks[index])),
      );
    // The parts are cut as without chapters (sized for the longest answer a part may be asked,
    // they mostly leave room for its chapters): no call more than the summary needs. Only where
    // a part's chapters do not fit are the parts cut smaller, if that costs at most one part.
    let parts = cut(plain);
    let asks = partAsks(plan, spansOf(units, parts));
    if (!holds(parts, asks)) {
      const largest = probeAsk(plan, plain / estimateTokens(text));
      const asking = dataBudget(probe, askingFor(run, largest));
      const smaller = asking >= MIN_DATA_TOKENS ? cut(asking) : undefined;
      const smallerAsks = smaller && partAsks(plan, spansOf(units, smaller), largest);
      // The probe sizes for the longest ask a part may get; what each part holds is checked.
      if (
        smaller &&
        smallerAsks &&
        smaller.length <= parts.length + 1 &&
        holds(smaller, smallerAsks)
      ) {
        parts = smaller;
        asks = smallerAsks;
      } else {
        asks = parts.map(() => undefined);
      }
    }
    // Each part once, then at most one combination per part and the final step: a reduce that
    // needs more is not converging, and ends (422) rather than spending calls.
    run.callsLeft = 2 * parts.length + 1;
    const stepOf = (index: number): Step => stepFor(parts.length, index);
    if (job) {
      const recalled = parts.filter((part, index) =>
        job.recall(callKey(stepOf(index), askingFor(run, asks[index]), part)),
      );
      await job.progress('summarizing', parts.length, recalled.length);
    }
    const answers = await mapBounded(parts, concurrency, signal, (part, index, inner) =>
      call(run, stepOf(index), part, inner, asks[index]),
    );
    await job?.progress('combining', parts.length, parts.length);
    const partials = answers.map((answer) => renderPart(answer.summary, answer.keyPoints));
    const result = await reduce(run, partials, 1);
    const chapters = await chaptersOf(answers.flatMap((answer) => answer.chapters));
    return { ...result, chapters, chunks: parts.length, inputTokens, outputTokens };
  }

  return { summarize };
}
