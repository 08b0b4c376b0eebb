// How a summary by a language model is planned: what one call of a model holds (token
// estimates, answer sizes, the room a prompt leaves for data), how a long transcript is cut into
// parts, and the longest summary a model can make whatever the video. Light and without I/O:
// POST /summarize checks a request against it before any work starts (a summary the model
// cannot make is refused there, not failed after its calls), and the summarizer plans with it.
import { UnprocessableError } from '../../errors';
import {
  estimateTokens,
  MIN_DATA_TOKENS,
  type ModelLimits,
  maxTokensFor,
  maxWordsFor,
  metadataCharsWithin,
  PLANNING_TAG,
  roomForData,
  transcriptRoom,
  wantedTokens,
} from '../../models/tokens';
import { CHAPTERS_CHARS, DESCRIPTION_CHARS, NAME_CHARS } from '../../transcripts/data-block';
import { bound } from '../../util/bound';
import type { VideoMetadata } from '../../youtube/types';
import { keyPointCount } from '../key-points';
import { chaptersAsked, type PromptContext, type Step, userPrompt } from './prompt';
import { systemPrompt } from './prompt/instructions';

export type { ModelLimits };

/** Words of summary asked for per part in the map step, at most and at least. */
const PART_WORDS_MAX = 800;
const PART_WORDS_MIN = 60;
/** Longest summary the planning considers (the API allows 2,000 words). */
const LONGEST_SUMMARY_WORDS = 10_000;

// Sizes the plan expects of a part's summary, in estimated tokens (estimateTokens): a word is
// about 6 characters with its space (English averages 5.3), a key point line a sentence of ~20
// words with its [m:ss], and each part its label and the "Key points:" line.
const ESTIMATED_TOKENS_PER_WORD = 2;
const ESTIMATED_TOKENS_PER_KEY_POINT = 45;
const ESTIMATED_TOKENS_PER_PART = 10;

/**
 * The metadata of the largest prompt a video can make: the longest title and channel name, a
 * full description excerpt and as many chapters as the prompt shows (the data block bounds
 * each).
 */
function largestMetadata(): VideoMetadata {
  const chapters = Array.from(
    { length: Math.ceil(CHAPTERS_CHARS / 20) + 3 },
    (_, i) => `${Math.floor(i / 6)}:${String((i % 6) * 10).padStart(2, '0')} ${'c'.repeat(100)}`,
  );
  return {
    video_id: 'xxxxxxxxxxx',
    title: 't'.repeat(NAME_CHARS + 1),
    channel_title: 'c'.repeat(NAME_CHARS + 1),
    channel_id: 'UCxxxxxxxxxxxxxxxxxxxxxx',
    duration_seconds: null,
    view_count: null,
    description: [`${'d '.repeat(DESCRIPTION_CHARS)}`, ...chapters].join('\n'),
    thumbnail_url: null,
    published_at: '2000-01-01T00:00:00Z',
    like_count: null,
    comment_count: null,
  };
}

/** 422 for a summary longer than the model can make: it says how long one can be. */
export class SummaryLengthError extends UnprocessableError {
  override name = 'SummaryLengthError';
  /**
   * @param why what does not fit, when it is this video's (its part summaries); absent, the
   *   model's limit whatever the video.
   */
  constructor(model: string, requested: number, longest: number, why?: string) {
    const advice =
      longest > 0
        ? `Ask for at most ${longest} words, or use a model with a larger context.`
        : 'Use a model with a larger context.';
    super(
      'summary-length-unsupported',
      'Summary length unsupported',
      why === undefined
        ? `The model "${model}" can make summaries of at most ${longest} words, not ${requested}. ${advice}`
        : `The model "${model}" cannot make a summary of ${requested} words of this video: ${why}. ${advice}`,
      { extensions: { max_summary_length: longest } },
    );
  }
}

// The longest summary of any video, per model (catalog entries live as long as the process).
const longestForAnyVideo = new WeakMap<ModelLimits, number>();

/** How calls of one model are sized. */
export interface Planner {
  /** Words a part's or an intermediate combination's summary is asked for, at most. */
  readonly partWordsMax: number;
  /** `words` within what a part's summary may be asked for. */
  clampWords(words: number): number;
  /** Key points asked for in one step: the summary's count for the final answer. */
  pointsFor(step: Step, context: PromptContext): number;
  /**
   * Estimated tokens of data (transcript or part summaries) one call of this step can hold: what
   * its context leaves beside the prompts and the answer, less, for a transcript, the room its
   * description and chapters keep (all they need, up to a quarter of it).
   */
  dataBudget(step: Step, context: PromptContext): number;
  /**
   * Characters the description and chapters may take in the call of `step` over `body`: what
   * the context leaves beside the data (see PromptContext.metadataChars).
   */
  metadataChars(step: Step, context: PromptContext, body: string): number;
  /**
   * The longest summary (words) the model can make of any video with this metadata (default:
   * the largest prompt any video makes): its answer fits the model's output limit and its final
   * step fits the context with the part summaries it combines. 0 when the model's context
   * cannot hold a part of a transcript beside its prompt at all.
   */
  longestSummary(metadata?: VideoMetadata): number;
  /**
   * The longest summary, below `words`, whose final step would hold part summaries that came to
   * `bodyTokens` for `words` (part summaries grow with the summary asked for).
   */
  shorterThan(words: number, bodyTokens: number, context: PromptContext): number;
}

/** What a planner's operations share: the model's limits and the longest part summary. */
interface PlanDeps {
  limits: ModelLimits;
  partWordsMax: number;
}

/** `words` within what a part's summary may be asked for. */
function clampWords({ partWordsMax }: PlanDeps, words: number): number {
  return Math.max(Math.min(PART_WORDS_MIN, partWordsMax), Math.min(partWordsMax, words));
}

/** Key points asked for in one step: the summary's count for the final answer. */
function pointsFor(step: Step, context: PromptContext): number {
  return context.keyPoints === 0 ? 0 : Math.min(context.keyPoints, keyPointCount(step.words));
}

/**
 * Estimated tokens one call of `step` leaves for its data and the description and chapters
 * together (its prompts with neither, its answer and the margins taken).
 */
function roomOf({ limits }: PlanDeps, step: Step, context: PromptContext): number {
  const stepContext = { ...context, keyPoints: pointsFor(step, context), metadataChars: 0 };
  return roomForData(
    limits,
    maxTokensFor(step.words, limits, stepContext.keyPoints, chaptersAsked(stepContext)),
    systemPrompt(PLANNING_TAG, step, stepContext),
    userPrompt(step, PLANNING_TAG, stepContext, ''),
  );
}

/** See Planner.dataBudget. */
function dataBudget(deps: PlanDeps, step: Step, context: PromptContext): number {
  const room = roomOf(deps, step, context);
  // Combinations need the room for the part summaries: their description and chapters get
  // what those leave (metadataChars), at least nothing.
  if (step.kind === 'combine') return room;
  const stepContext = { ...context, keyPoints: pointsFor(step, context) };
  const full = userPrompt(step, PLANNING_TAG, { ...stepContext, metadataChars: undefined }, '');
  const bare = userPrompt(step, PLANNING_TAG, { ...stepContext, metadataChars: 0 }, '');
  return transcriptRoom(room, estimateTokens(full) - estimateTokens(bare));
}

/** See Planner.metadataChars. */
function metadataChars(deps: PlanDeps, step: Step, context: PromptContext, body: string): number {
  return metadataCharsWithin(roomOf(deps, step, context), body);
}

/** The final step of a summary of `words` words, over `total` parts. */
const finalStep = (words: number, total: number): Step => ({
  kind: 'combine',
  words,
  first: 1,
  last: total,
  total,
  final: true,
});

/**
 * Whether a summary of `words` words can be made: its answer fits the output limit, a part
 * of the transcript fits beside a part's prompt, and the final step holds the summaries of
 * two parts (the fewest a long transcript is cut into), each asked for its share of 1.5
 * times the words, with its key points.
 */
function fits(deps: PlanDeps, words: number, metadata: VideoMetadata): boolean {
  const { limits, partWordsMax } = deps;
  const context: PromptContext = { metadata, keyPoints: keyPointCount(words) };
  if (wantedTokens(words, limits, context.keyPoints) > limits.maxOutputTokens) return false;
  const probe: Step = { kind: 'part', words: partWordsMax, index: 0, count: 2 };
  if (dataBudget(deps, probe, context) < MIN_DATA_TOKENS) return false;
  const partWords = clampWords(deps, Math.ceil((1.5 * words) / 2));
  const partPoints = Math.min(context.keyPoints, keyPointCount(partWords));
  const part =
    partWords * ESTIMATED_TOKENS_PER_WORD +
    partPoints * ESTIMATED_TOKENS_PER_KEY_POINT +
    ESTIMATED_TOKENS_PER_PART;
  return dataBudget(deps, finalStep(words, 2), context) >= 2 * part;
}

/** The largest `words` in [0, below) that `ok` accepts (it holds up to a length, then not). */
function largest(below: number, ok: (words: number) => boolean): number {
  let low = 0;
  let high = below;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (ok(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** See Planner.longestSummary. */
function longestSummary(deps: PlanDeps, metadata?: VideoMetadata): number {
  const known = metadata === undefined ? longestForAnyVideo.get(deps.limits) : undefined;
  if (known !== undefined) return known;
  const seen = metadata ?? largestMetadata();
  const longest = largest(
    LONGEST_SUMMARY_WORDS + 1,
    (words) => words === 0 || fits(deps, words, seen),
  );
  if (metadata === undefined) longestForAnyVideo.set(deps.limits, longest);
  return longest;
}

/** See Planner.shorterThan. */
function shorterThan(
  deps: PlanDeps,
  words: number,
  bodyTokens: number,
  context: PromptContext,
): number {
  return largest(words, (shorter) => {
    if (shorter === 0) return true;
    const shorterContext = {
      ...context,
      keyPoints: context.keyPoints === 0 ? 0 : keyPointCount(shorter),
    };
    const budget = dataBudget(deps, finalStep(shorter, 2), shorterContext);
    return (
      wantedTokens(shorter, deps.limits, shorterContext.keyPoints) <= deps.limits.maxOutputTokens &&
      budget >= (bodyTokens * shorter) / words
    );
  });
}

/** The planner of one model. */
export function plannerFor(limits: ModelLimits): Planner {
  const deps: PlanDeps = { limits, partWordsMax: Math.min(PART_WORDS_MAX, maxWordsFor(limits)) };
  return {
    partWordsMax: deps.partWordsMax,
    clampWords: bound(deps, clampWords),
    pointsFor,
    dataBudget: bound(deps, dataBudget),
    metadataChars: bound(deps, metadataChars),
    longestSummary: bound(deps, longestSummary),
    shorterThan: bound(deps, shorterThan),
  };
}
