// Summaries by a language model, whoever serves it (Bedrock, an OpenAI-compatible server: see
// ChatModel). A transcript that does not fit the model's context is summarised in parts (map)
// whose summaries are then combined (reduce, recursively when even they do not fit). Nothing is
// ever cut off to make it fit. Key points come back with the summary and are checked against
// the transcript; so do chapters, asked of the calls that read the transcript and put together
// once they are done. This module decides between one call and parts, and cuts the parts.
import { UnprocessableError } from '../../errors';
import type { ChatModel } from '../../models/chat';
import { estimateTokens, MIN_DATA_TOKENS } from '../../models/tokens';
import { type TimedUnit, timedUnits } from '../../transcripts/timed-units';
import { bound } from '../../util/bound';
import { type ChapterStart, NO_CHAPTERS } from '../chapters/chapter';
import { modelChapters } from '../chapters/finish';
import { keyPointCount } from '../key-points';
import type { SummarizeInput, Summarizer, SummaryResult } from '../types';
import { askFor, chapterPlan, partAsks, probeAsk } from './chapter-asks';
import { spansOf, splitAtChapters } from './parts';
import { type ModelLimits, plannerFor, SummaryLengthError } from './plan';
import { splitIntoParts } from './plan/even-split';
import type { ChapterAsk, PromptContext, Step } from './prompt';
import { askingFor, call, callKey, type Run, type SummaryModel } from './summarizer/call';
import { reduce, renderPart } from './summarizer/combine';
import { mapBounded } from './summarizer/map-bounded';

export type { ChatAnswer, ChatModel, ChatRequest } from '../../models/chat';
export type { ModelLimits } from './plan';

export interface LlmSummarizerOptions {
  chat: ChatModel;
  limits: ModelLimits;
  /** Parts summarised at the same time for long transcripts. */
  concurrency: number;
}

/** A summary under way: its run of calls, its transcript as units and as text, its tokens. */
interface Summary {
  input: SummarizeInput;
  run: Run;
  units: TimedUnit[];
  texts: string[];
  text: string;
  tokens: { inputTokens: number | null; outputTokens: number | null };
}

/**
 * The run of a summary's calls, its tokens counted as they come.
 * @throws 422 transcript-empty when the transcript has no text.
 */
export function beginSummary(model: SummaryModel, input: SummarizeInput): Summary {
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
  const tokens: Summary['tokens'] = { inputTokens: null, outputTokens: null };
  const usage: Run['usage'] = (answer) => {
    if (answer.inputTokens !== undefined) {
      tokens.inputTokens = (tokens.inputTokens ?? 0) + answer.inputTokens;
    }
    if (answer.outputTokens !== undefined) {
      tokens.outputTokens = (tokens.outputTokens ?? 0) + answer.outputTokens;
    }
  };
  const run: Run = {
    model,
    context,
    transcript,
    signal,
    usage,
    job,
    targetWords,
    callsLeft: 1,
    callsMade: 0,
    chapters: chapterPlan(input),
  };
  const texts = units.map((unit) => unit.text);
  return { input, run, units, texts, text: texts.join(' '), tokens };
}

/** The chapters of the calls' answers, put together (or made offline). */
function chaptersOf({ input, run }: Summary, made: ChapterStart[]) {
  const { creator, endMs } = run.chapters;
  return input.chapters === false
    ? Promise.resolve(NO_CHAPTERS)
    : modelChapters({ transcript: input.transcript, made, creator, endMs, signal: input.signal });
}

/** The summary of a transcript that fits one call, its chapters asked of it when they fit too. */
export async function summarizeWhole(summary: Summary): Promise<SummaryResult> {
  const { run, text, input } = summary;
  const { dataBudget } = run.model.planner;
  const whole: Step = { kind: 'whole', words: input.targetWords };
  // Chapters are asked of the call when they fit beside the transcript; else they are made
  // offline rather than cost the calls of a summary in parts.
  const asked = askFor(run.chapters, 0, run.chapters.endMs);
  const ask = estimateTokens(text) <= dataBudget(whole, askingFor(run, asked)) ? asked : undefined;
  const wholeContext = askingFor(run, ask);
  const job = input.job;
  await job?.progress(
    'summarizing',
    1,
    job.recall(callKey(run, whole, wholeContext, text)) ? 1 : 0,
  );
  const result = await call(run, whole, text, input.signal, ask);
  const chapters = await chaptersOf(summary, result.chapters);
  return { ...result, chapters, chunks: 1, ...summary.tokens };
}

/** The step of part `index` of `count`: its share of the summary, within what a part may ask. */
const partStep = (summary: Summary, count: number, index: number): Step => ({
  kind: 'part',
  words: summary.run.model.planner.clampWords(Math.ceil((1.5 * summary.input.targetWords) / count)),
  index,
  count,
});

/**
 * The parts of a transcript too long for one call, and what each is asked about chapters. The
 * parts are cut as without chapters (sized for the longest answer a part may be asked, they
 * mostly leave room for its chapters): no call more than the summary needs. Only where a part's
 * chapters do not fit are the parts cut smaller, if that costs at most one part.
 * @throws SummaryLengthError when this video's parts and this length do not fit the model.
 */
export function partsOf(summary: Summary) {
  const { run, units, texts, text, input } = summary;
  const { planner, limits } = run.model;
  const plan = run.chapters;
  // Size parts for the longest per-part answer we may ask for, so the budget holds whatever
  // the final part count turns out to be.
  const probe: Step = { kind: 'part', words: planner.partWordsMax, index: 0, count: 1 };
  const plain = planner.dataBudget(probe, run.context);
  const longest = planner.longestSummary(input.metadata);
  if (plain < MIN_DATA_TOKENS || input.targetWords > longest) {
    // Known before any call: this video's parts and this length do not fit the model.
    throw new SummaryLengthError(limits.name, input.targetWords, longest);
  }
  const starts = plan.creator.map((chapter) => chapter.startMs);
  const cut = (budget: number) =>
    (plan.creator.length > 0 && splitAtChapters(units, budget, starts)) ||
    splitIntoParts(texts, budget);
  /** Whether each part's call, asked its chapters, still holds the part. */
  const holds = (parts: readonly string[], asks: readonly (ChapterAsk | undefined)[]) =>
    parts.every(
      (part, index) =>
        asks[index] === undefined ||
        estimateTokens(part) <=
          planner.dataBudget(partStep(summary, parts.length, index), askingFor(run, asks[index])),
    );
  const parts = cut(plain);
  const asks = partAsks(plan, spansOf(units, parts));
  if (holds(parts, asks)) return { parts, asks };
  const largest = probeAsk(plan, plain / estimateTokens(text));
  const asking = planner.dataBudget(probe, askingFor(run, largest));
  const smaller = asking >= MIN_DATA_TOKENS ? cut(asking) : undefined;
  const smallerAsks = smaller && partAsks(plan, spansOf(units, smaller), largest);
  // The probe sizes for the longest ask a part may get; what each part holds is checked.
  if (smaller && smallerAsks && smaller.length <= parts.length + 1 && holds(smaller, smallerAsks)) {
    return { parts: smaller, asks: smallerAsks };
  }
  return { parts, asks: parts.map((): ChapterAsk | undefined => undefined) };
}

/** The summary of a transcript in parts (map), their summaries then combined (reduce). */
export async function summarizeInParts(summary: Summary): Promise<SummaryResult> {
  const { run, input } = summary;
  const { job, signal } = input;
  const { parts, asks } = partsOf(summary);
  // Each part once, then at most one combination per part and the final step: a reduce that
  // needs more is not converging, and ends (422) rather than spending calls.
  run.callsLeft = 2 * parts.length + 1;
  const stepOf = (index: number): Step => partStep(summary, parts.length, index);
  if (job) {
    const recalled = parts.filter((part, index) =>
      job.recall(callKey(run, stepOf(index), askingFor(run, asks[index]), part)),
    );
    await job.progress('summarizing', parts.length, recalled.length);
  }
  const answers = await mapBounded(parts, run.model.concurrency, signal, (part, index, inner) =>
    call(run, stepOf(index), part, inner, asks[index]),
  );
  await job?.progress('combining', parts.length, parts.length);
  const partials = answers.map((answer) => renderPart(answer.summary, answer.keyPoints));
  const result = await reduce(run, partials, 1);
  const chapters = await chaptersOf(
    summary,
    answers.flatMap((answer) => answer.chapters),
  );
  return { ...result, chapters, chunks: parts.length, ...summary.tokens };
}

/** A summary of the input: in one call when the transcript fits one, else in parts. */
export async function summarize(
  model: SummaryModel,
  input: SummarizeInput,
): Promise<SummaryResult> {
  const summary = beginSummary(model, input);
  const whole: Step = { kind: 'whole', words: input.targetWords };
  return estimateTokens(summary.text) <= model.planner.dataBudget(whole, summary.run.context)
    ? summarizeWhole(summary)
    : summarizeInParts(summary);
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
  const model: SummaryModel = { chat, limits, planner: plannerFor(limits), concurrency };
  return { summarize: bound(model, summarize) };
}
