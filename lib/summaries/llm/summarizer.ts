// Summaries by a language model, whoever serves it (Bedrock, an OpenAI-compatible server: see
// ChatModel). A transcript that does not fit the model's context is summarised in parts (map)
// whose summaries are then combined (reduce, recursively when even they do not fit). Nothing is
// ever cut off to make it fit. Key points come back with the summary and are checked against
// the transcript (key-points.ts); so do chapters, asked of the calls that read the transcript
// (chapter-asks.ts) and put together once they are done (chapters/finish.ts).
// One call is in summarizer/call.ts, the combine step in summarizer/combine.ts.
import { UnprocessableError } from '../../errors';
import type { ChatModel } from '../../models/chat';
import { estimateTokens, MIN_DATA_TOKENS } from '../../models/tokens';
import { timedUnits } from '../../transcripts/timed-units';
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

/**
 * A Summarizer over one model. Cheap to create, so one may be made per request for the model
 * the request names. Its `summarize` throws what the ChatModel throws, 502 for an answer far
 * longer than asked, and 422 for an empty transcript or a summary longer than the model can
 * make of it (summary-length-unsupported, with the longest it can).
 */
export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer {
  const { chat, limits } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const planner = plannerFor(limits);
  const { partWordsMax, clampWords, dataBudget } = planner;
  const model: SummaryModel = { chat, limits, planner, concurrency };

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
      model,
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
      await job?.progress(
        'summarizing',
        1,
        job.recall(callKey(run, whole, wholeContext, text)) ? 1 : 0,
      );
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
        job.recall(callKey(run, stepOf(index), askingFor(run, asks[index]), part)),
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
