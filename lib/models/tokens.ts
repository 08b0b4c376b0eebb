// What one call of a model holds: token estimates, an answer's max tokens, and the room its
// prompt leaves for data (and, beside a transcript, for the description and chapters).

/** What the planning of a call needs to know of a model. */
export interface ModelLimits {
  name: string;
  /** Input + output tokens the model accepts in one call. */
  contextTokens: number;
  /** Largest answer (max tokens) the model accepts. */
  maxOutputTokens: number;
  /** Output tokens kept free for reasoning the model may do before it answers. */
  reasoningReserveTokens: number;
}

/**
 * The share of a call's room the description and chapters keep beside a transcript, at most:
 * they help to read it, but a small context needs the room for the transcript itself. (Part
 * summaries get all the room; the metadata of a combination gets what they leave.)
 */
const METADATA_SHARE = 1 / 4;
/** Below this many tokens of room for transcript text per call, chunking is pointless. */
export const MIN_DATA_TOKENS = 200;
/** Tokens of answer per key point asked for (a sentence and its time). */
const TOKENS_PER_KEY_POINT = 40;
/** Tokens of answer per chapter asked for (its time and title, a sentence or two on it). */
const TOKENS_PER_CHAPTER = 80;

/** Same length as the real markers: only sizes matter where this is used. */
export const PLANNING_TAG = 'data-000000000000';

/**
 * Conservative token estimate: 3 characters per token. English averages about 4 with most
 * tokenizers, newer Claude tokenizers produce ~30% more; over-estimating only costs an extra part.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/**
 * Estimated tokens of data one call can hold: the model's context less the answer's max tokens,
 * the prompts without their data (`prompts`), the message framing, and a safety margin for
 * estimation error. Negative when even the prompts do not fit.
 */
export function roomForData(
  limits: Pick<ModelLimits, 'contextTokens'>,
  maxTokens: number,
  ...prompts: string[]
): number {
  const margin = Math.max(256, Math.ceil(limits.contextTokens * 0.02));
  const promptTokens = prompts.reduce((sum, prompt) => sum + estimateTokens(prompt), 0);
  // 50: the message framing and role tokens the estimate does not see.
  return limits.contextTokens - maxTokens - promptTokens - 50 - margin;
}

/**
 * Estimated tokens a call leaves for a transcript (or passages of it) when `room` is what its
 * prompt leaves without the video's description and chapters, which take `metadataTokens` in
 * full: `room` less what they keep, all they need up to METADATA_SHARE of it.
 */
export function transcriptRoom(room: number, metadataTokens: number): number {
  return room - Math.min(Math.max(0, metadataTokens), Math.floor(room * METADATA_SHARE));
}

/**
 * Characters of description and chapters a call may show beside `body` when `room` is what its
 * prompt leaves without them: all that the body leaves (the prompt's metadataChars).
 */
export function metadataCharsWithin(room: number, body: string): number {
  return Math.max(0, 3 * (room - estimateTokens(body)) - 3);
}

/**
 * Tokens an answer of about `words` words, `keyPoints` key points and `chapters` chapters may
 * need, uncapped.
 */
export function wantedTokens(
  words: number,
  limits: ModelLimits,
  keyPoints: number,
  chapters = 0,
): number {
  return (
    Math.ceil(words * 1.5) +
    150 +
    keyPoints * TOKENS_PER_KEY_POINT +
    chapters * TOKENS_PER_CHAPTER +
    limits.reasoningReserveTokens
  );
}

/**
 * Max tokens for an answer of about `words` words, `keyPoints` key points and `chapters`
 * chapters: ~1.5 tokens per word plus a margin so the model can finish its last sentence, plus
 * the model's reasoning reserve, capped at its limit.
 */
export function maxTokensFor(
  words: number,
  limits: ModelLimits,
  keyPoints = 0,
  chapters = 0,
): number {
  return Math.min(limits.maxOutputTokens, wantedTokens(words, limits, keyPoints, chapters));
}

/** The most words a model can be asked for without max tokens hitting its output limit. */
export function maxWordsFor(limits: ModelLimits): number {
  return Math.max(
    1,
    Math.floor((limits.maxOutputTokens - 150 - limits.reasoningReserveTokens) / 1.5),
  );
}
