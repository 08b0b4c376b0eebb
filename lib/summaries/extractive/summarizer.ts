// The offline summarizer: no network and no model download, so it works anywhere (the default
// locally). It splits the transcript into sentences, scores them without supervision and picks
// a budgeted, non-redundant subset in transcript order.

import { runInSlices, runToEnd, type Steps } from '../../cooperative';
import { UnprocessableError } from '../../errors';
import { trimEndOf } from '../../text';
import { countWords } from '../../words';
import type { Transcript, TranscriptSegment } from '../../youtube/types';
import { type Chapters, NO_CHAPTERS, videoEndMs } from '../chapters/chapter';
import { chaptersOfVideo } from '../chapters/creator';
import { offlineChapters, type RankedSentence } from '../chapters/offline';
import { type KeyPoint, keyPointCount } from '../key-points';
import type { SummarizeInput, Summarizer, SummaryResult } from '../types';
import { english } from './english';
import { stripLeadingFillers } from './fillers';
import { analyse } from './ranking';

export { rankSentences } from './ranking';

// Redundancy penalty of the selection (MMR) and how strongly it prefers dense sentences: gain is
// (score - penalty * similarity) / words^COST_EXPONENT. Tuned by ROUGE against the labelled
// sentences of whole VT-SSum videos, where any penalty and exponent from 0 to 0.5 score alike
// (higher values lose 1-4 ROUGE-1); a mild penalty is kept for videos that repeat themselves,
// and the exponent keeps long rambling sentences from eating a small budget.
const REDUNDANCY_WEIGHT = 0.3;
const COST_EXPONENT = 0.5;
// The selection aims inside ±10% so that rounding and the final trim stay inside ±15%.
const BUDGET_SLACK = 0.1;

const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;
const CLAUSE_END = /[.!?…,;:\-–—]["'”’)\]]*$/u;
// Caption cues such as [Music], [offscreen], ♪ lyrics ♪ or *dog barks* are not speech; a single
// word in asterisks is emphasis (*it*) and stays. No cue spans its own opening character, so
// each attempt stops at the next one: linear, even on a caption of 100,000 "[".
const CUE = /\[[^[\]]*\]|♪[^♪]*♪|\*[^*\s]+(?:\s+[^*\s]+)+\*/gu;

// Unpunctuated captions are cut at the longest pause that keeps a sentence within these bounds.
const MIN_SENTENCE_WORDS = 8;
const TARGET_SENTENCE_WORDS = 18;
const MAX_SENTENCE_WORDS = 30;
// How much pause (ms) one word away from the typical length is worth when choosing a cut.
const LENGTH_PENALTY_MS = 25;
// A pause this long ends a sentence as soon as it has MIN_SENTENCE_WORDS.
const LONG_PAUSE_MS = 1200;
// Punctuated sentences longer than this are run-ons (missing full stops) and are split.
const MAX_PUNCTUATED_WORDS = 50;
// At least one sentence end per this many words counts as a punctuated transcript.
const WORDS_PER_SENTENCE_END = 60;
// wink-nlp reads a punctuated transcript in pieces of about this many words, cut after a
// sentence end, so that a 3-hour transcript can pause between pieces (~5 ms each).
const PIECE_WORDS = 1_500;

function cleanCaption(text: string): string {
  return text.replace(CUE, ' ').replace(/\s+/g, ' ').trim();
}

// Display form: capitalised and closed, as unpunctuated captions and split run-ons lack both.
// Word counts do not change.
function finishSentence(text: string): string {
  const trimmed = text.trim().replace(/^[,;:\-–—\s]+/u, '');
  if (!trimmed) return '';
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return SENTENCE_END.test(capitalised) ? capitalised : `${trimEndOf(capitalised, ',;:-–—')}.`;
}

// Splits word lists longer than `max` near their middle, preferring a clause boundary.
function splitLongWords(words: string[], max: number): string[][] {
  if (words.length <= max) return [words];
  const middle = Math.floor(words.length / 2);
  let cut = middle;
  for (let d = 0; d <= Math.floor(words.length / 4); d++) {
    if (/[,;:]$/.test(words[middle - d - 1] ?? '')) {
      cut = middle - d;
      break;
    }
    if (/[,;:]$/.test(words[middle + d - 1] ?? '')) {
      cut = middle + d;
      break;
    }
  }
  return [...splitLongWords(words.slice(0, cut), max), ...splitLongWords(words.slice(cut), max)];
}

const FIRST_PERSON = /^["'“‘(]?I(?:['’](?:m|ve|ll|d))?\b/u;

// Manual captions often leave the full stop off a line when the next line starts a sentence.
function startsSentence(text: string): boolean {
  return /^["'“‘(]?\p{Lu}/u.test(text) && !FIRST_PERSON.test(text);
}

/** A sentence and the start of the caption line where it begins. */
interface TimedSentence {
  text: string;
  startMs: number;
}

/**
 * Where each sentence begins in `text` (the lines of one piece joined by spaces), as the start
 * of its line: sentences come in order, so each is looked for after the previous one.
 */
function timeSentences(
  sentences: string[],
  text: string,
  lineStarts: number[],
  lineTimes: number[],
): TimedSentence[] {
  const timed: TimedSentence[] = [];
  let cursor = 0;
  let line = 0;
  for (const sentence of sentences) {
    const found = text.indexOf(sentence.split(' ').slice(0, 3).join(' '), cursor);
    if (found >= 0) cursor = found;
    while (line + 1 < lineStarts.length && (lineStarts[line + 1] ?? 0) <= cursor) line++;
    timed.push({ text: sentence, startMs: lineTimes[line] ?? 0 });
    cursor += 1;
  }
  return timed;
}

function* splitPunctuated(texts: string[], times: number[]): Steps<TimedSentence[]> {
  const lines = texts.map((text, i) => {
    const next = texts[i + 1];
    return next !== undefined && !CLAUSE_END.test(text) && startsSentence(next) ? `${text}.` : text;
  });
  const sentences: TimedSentence[] = [];
  let piece: string[] = [];
  let pieceTimes: number[] = [];
  let pieceWords = 0;
  for (const [i, line] of lines.entries()) {
    piece.push(line);
    pieceTimes.push(times[i] ?? 0);
    pieceWords += line.split(' ').length;
    const last = i === lines.length - 1;
    // A piece ends where a sentence ends and the next line starts one, so wink-nlp finds the
    // same sentences in pieces as in the whole; past twice the size, any sentence end will do.
    const next = texts[i + 1];
    const ends = SENTENCE_END.test(line);
    const boundary =
      (ends && next !== undefined && startsSentence(next) && pieceWords >= PIECE_WORDS) ||
      (ends && pieceWords >= 2 * PIECE_WORDS);
    if (!last && !boundary) continue;
    const text = piece.join(' ');
    const found: string[] = [];
    for (const sentence of english().nlp.readDoc(text).sentences().out()) {
      for (const words of splitLongWords(
        sentence.split(/\s+/).filter(Boolean),
        MAX_PUNCTUATED_WORDS,
      )) {
        found.push(words.join(' '));
      }
    }
    const lineStarts: number[] = [];
    let offset = 0;
    for (const pieceLine of piece) {
      lineStarts.push(offset);
      offset += pieceLine.length + 1;
    }
    sentences.push(...timeSentences(found, text, lineStarts, pieceTimes));
    piece = [];
    pieceTimes = [];
    pieceWords = 0;
    yield;
  }
  return sentences;
}

interface Unit {
  words: string[];
  /** Start of its caption line. */
  startMs: number;
  /** Estimated silence after this unit, in ms (Infinity after the last one). */
  pauseAfter: number;
}

// Silence after each segment. ASR tracks often overlap (a line's duration runs into the next
// line's start), so the gap alone says little; the time left over after speaking the line's
// words at the transcript's median rate catches those pauses too.
function pausesAfter(segments: TranscriptSegment[], wordCounts: number[]): number[] {
  const rates: number[] = [];
  for (let i = 0; i + 1 < segments.length; i++) {
    const words = wordCounts[i] ?? 0;
    const current = segments[i];
    const next = segments[i + 1];
    if (words > 0 && current && next) rates.push((next.offsetMs - current.offsetMs) / words);
  }
  rates.sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)] ?? 350;
  const msPerWord = Math.min(Math.max(median, 150), 1000);
  return segments.map((segment, i) => {
    const next = segments[i + 1];
    if (!next) return Number.POSITIVE_INFINITY;
    const gap = next.offsetMs - (segment.offsetMs + segment.durationMs);
    const leftOver = next.offsetMs - segment.offsetMs - (wordCounts[i] ?? 0) * msPerWord;
    return Math.max(gap, leftOver);
  });
}

// Groups caption lines into sentences, cutting at the longest pause (ties: nearest to the
// typical sentence length) within MIN..MAX words, or at once after a long pause.
function* splitByPauses(segments: TranscriptSegment[], texts: string[]): Steps<TimedSentence[]> {
  const words = texts.map((text) => text.split(' ').filter(Boolean));
  const pauses = pausesAfter(
    segments,
    words.map((w) => w.length),
  );
  const units: Unit[] = [];
  words.forEach((list, i) => {
    if (list.length === 0) return;
    const pieces = splitLongWords(list, MAX_SENTENCE_WORDS);
    pieces.forEach((piece, k) => {
      units.push({
        words: piece,
        startMs: segments[i]?.offsetMs ?? 0,
        pauseAfter: k === pieces.length - 1 ? (pauses[i] ?? 0) : 0,
      });
    });
  });
  const sentences: TimedSentence[] = [];
  let start = 0;
  while (start < units.length) {
    let total = 0;
    let best = -1;
    let bestStrength = Number.NEGATIVE_INFINITY;
    let end = start;
    for (; end < units.length; end++) {
      const unit = units[end] as Unit;
      if (end > start && total + unit.words.length > MAX_SENTENCE_WORDS) break;
      total += unit.words.length;
      if (total < MIN_SENTENCE_WORDS) continue;
      if (unit.pauseAfter >= LONG_PAUSE_MS) {
        best = end;
        break;
      }
      const strength =
        unit.pauseAfter - LENGTH_PENALTY_MS * Math.abs(total - TARGET_SENTENCE_WORDS);
      if (strength > bestStrength) {
        bestStrength = strength;
        best = end;
      }
    }
    if (best < 0 || end >= units.length) best = Math.max(best, Math.min(end, units.length) - 1);
    const text = units
      .slice(start, best + 1)
      .flatMap((unit) => unit.words)
      .join(' ');
    // ASR writes the pronoun in lower case ("i think", "i'm").
    sentences.push({
      text: text.replace(/(^|\s)i(?=(?:['’]\p{L}+)?(?:\s|$))/gu, '$1I'),
      startMs: units[start]?.startMs ?? 0,
    });
    start = best + 1;
    yield;
  }
  return sentences;
}

/**
 * Splits a transcript into display-ready sentences: by wink-nlp when it is punctuated, else
 * (auto-generated captions, or any without punctuation) by pauses between caption lines and by
 * length, so no sentence exceeds 30 words.
 */
export function splitTranscript(transcript: Transcript): string[] {
  return runToEnd(split(transcript)).map((sentence) => sentence.text);
}

function* split(transcript: Transcript): Steps<TimedSentence[]> {
  const segments = transcript.segments.map((segment) => ({
    ...segment,
    text: cleanCaption(segment.text),
  }));
  const kept = segments.filter((segment) => segment.text);
  const texts = kept.map((segment) => segment.text);
  const joined = texts.join(' ');
  const ends = joined.match(/[.!?…](?=["'”’)\]]*(?:\s|$))/gu)?.length ?? 0;
  const punctuated = ends * WORDS_PER_SENTENCE_END >= countWords(joined);
  const raw = punctuated
    ? yield* splitPunctuated(
        texts,
        kept.map((segment) => segment.offsetMs),
      )
    : yield* splitByPauses(kept, texts);
  return raw
    .map((sentence) => ({ ...sentence, text: finishSentence(sentence.text) }))
    .filter((sentence) => sentence.text !== '');
}

function overlap(a: string[], b: Set<string>): number {
  if (a.length === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / Math.sqrt(a.length * b.size);
}

// Keeps the first `words` words of a sentence (at least `least`), ending at a clause boundary
// when there is one in that range, and marks the cut.
function trimSentence(sentence: string, words: number, least: number): string {
  const list = sentence.split(/\s+/).filter(Boolean).slice(0, words);
  let cut = list.length;
  for (let i = list.length - 1; i >= Math.max(least, 1); i--) {
    if (/[,;:]$/.test(list[i - 1] ?? '')) {
      cut = i;
      break;
    }
  }
  const kept = trimEndOf(list.slice(0, cut).join(' '), ',;:.!?…');
  return `${kept}…`;
}

/**
 * Picks sentences for a summary of about `targetWords` words (±15% when the text is long
 * enough; never more words than the text) and joins them in their original order.
 */
export function summarizeSentences(sentences: string[], targetWords: number): string {
  return joinParts(runToEnd(select(sentences, targetWords)).parts);
}

/** The chosen sentences (some cut short), by index, with what they were chosen by. */
interface Selection {
  parts: Map<number, string>;
  scores: number[];
  /** Whether a sentence says something: at least MIN_SAYING_WORDS words and a content word. */
  saying: boolean[];
  /** Each sentence's distinct content terms, and its words as shown. */
  terms: string[][];
  lengths: number[];
}

// Shorter sentences ("Brilliant!", "Yes, exactly.") are reactions, not content.
const MIN_SAYING_WORDS = 3;

function joinParts(parts: Map<number, string>): string {
  return [...parts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, text]) => text)
    .join(' ');
}

function* select(sentences: string[], targetWords: number): Steps<Selection> {
  // What the summary shows of each sentence: without the fillers that open it. The ranking reads
  // the sentence as said, as its weights were trained (scoring stripped sentences did worse).
  const shown = sentences.map(stripLeadingFillers);
  const lengths = shown.map((sentence) => countWords(sentence));
  const { terms, scores } = yield* analyse(sentences);
  const saying = sentences.map(
    (_, i) => (lengths[i] ?? 0) >= MIN_SAYING_WORDS && (terms[i]?.length ?? 0) > 0,
  );
  // A transcript of nothing but reactions still gets a summary of them.
  const eligible = saying.some(Boolean) ? saying : sentences.map(() => true);
  const available = lengths.reduce((sum, length, i) => sum + (eligible[i] ? length : 0), 0);
  if (available <= targetWords) {
    const all = shown.flatMap((sentence, i) => (eligible[i] ? [[i, sentence] as const] : []));
    return { parts: new Map(all), scores, saying, terms, lengths };
  }
  const top = scores.reduce((a, b) => Math.max(a, b), Number.MIN_VALUE);
  const upper = Math.floor(targetWords * (1 + BUDGET_SLACK));
  const lower = Math.ceil(targetWords * (1 - BUDGET_SLACK));
  const costs = lengths.map((length) => length ** COST_EXPONENT);
  const redundancy = new Float64Array(sentences.length);
  const chosen = new Uint8Array(sentences.length);
  const parts = new Map<number, string>();
  let total = 0;

  // Budgeted MMR: the best gain per word among the sentences that still fit. Once inside the
  // window, a sentence is only added if it brings the length closer to the target.
  while (total < targetWords) {
    let best = -1;
    let bestGain = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < sentences.length; i++) {
      const length = lengths[i] ?? 0;
      if (chosen[i] || !eligible[i] || length === 0 || total + length > upper) continue;
      if (total >= lower && length >= 2 * (targetWords - total)) continue;
      const relevance = (scores[i] ?? 0) / top;
      const gain = (relevance - REDUNDANCY_WEIGHT * (redundancy[i] ?? 0)) / (costs[i] ?? 1);
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    if (best < 0) break;
    chosen[best] = 1;
    parts.set(best, shown[best] ?? '');
    total += lengths[best] ?? 0;
    const picked = new Set(terms[best]);
    for (let i = 0; i < sentences.length; i++) {
      if (chosen[i]) continue;
      const similarity = overlap(terms[i] ?? [], picked);
      if (similarity > (redundancy[i] ?? 0)) redundancy[i] = similarity;
    }
    yield;
  }

  // Nothing left fits: fill the rest of the budget with the start of the best remaining
  // sentence rather than miss the target (every remaining one is longer than the room).
  if (total < lower) {
    const room = targetWords - total;
    let best = -1;
    for (let i = 0; i < sentences.length; i++) {
      if (chosen[i] || !eligible[i] || (lengths[i] ?? 0) === 0) continue;
      if (best < 0 || (scores[i] ?? 0) > (scores[best] ?? 0)) best = i;
    }
    if (best >= 0 && room > 0)
      parts.set(best, trimSentence(shown[best] ?? '', room, lower - total));
  }

  return { parts, scores, saying, terms, lengths };
}

/**
 * Key points of an extractive summary: its best-scored sentences that say something, each at
 * the start of the caption line where it begins, in video order.
 */
function keyPointsOf(selection: Selection, sentences: TimedSentence[], count: number): KeyPoint[] {
  const { parts, scores, saying } = selection;
  return [...parts.keys()]
    .filter((index) => saying[index])
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0))
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((index) => ({ text: parts.get(index) ?? '', startMs: sentences[index]?.startMs ?? 0 }));
}

/** The sentences with what the chapters read of them (offline.ts). */
function rankedOf(
  sentences: readonly TimedSentence[],
  analysis: { terms: string[][]; scores: number[] },
): RankedSentence[] {
  return sentences.map((sentence, i) => ({
    text: sentence.text,
    startMs: sentence.startMs,
    terms: analysis.terms[i] ?? [],
    score: analysis.scores[i] ?? 0,
    words: countWords(sentence.text),
  }));
}

/**
 * A transcript's sentences, timed and scored as the summary ranks them: what chapters are made
 * and summarised from offline when a model made the summary (chapters/finish.ts).
 */
export function* rankTranscript(transcript: Transcript): Steps<RankedSentence[]> {
  const sentences = yield* split(transcript);
  const analysis = yield* analyse(sentences.map((sentence) => sentence.text));
  return rankedOf(sentences, analysis);
}

function* summaryOf(
  input: Pick<SummarizeInput, 'transcript' | 'metadata' | 'targetWords' | 'keyPoints' | 'chapters'>,
): Steps<{ summary: string; keyPoints: KeyPoint[]; chapters: Chapters }> {
  const { transcript, metadata, targetWords } = input;
  const sentences = yield* split(transcript);
  const selection = yield* select(
    sentences.map((sentence) => sentence.text),
    targetWords,
  );
  const endMs = videoEndMs(transcript, metadata);
  const chapters =
    input.chapters === false
      ? NO_CHAPTERS
      : yield* offlineChapters(
          rankedOf(sentences, selection),
          endMs,
          chaptersOfVideo(metadata.description, endMs),
        );
  return {
    summary: joinParts(selection.parts),
    keyPoints:
      input.keyPoints === false
        ? []
        : keyPointsOf(selection, sentences, keyPointCount(targetWords)),
    chapters,
  };
}

/** Whether a summary in `wanted` (absent: any) can be made of a transcript in `transcript`. */
function sameLanguage(wanted: string | undefined, transcript: string): boolean {
  const primary = (tag: string) => tag.split('-')[0]?.toLowerCase();
  return wanted === undefined || primary(wanted) === primary(transcript);
}

/**
 * The offline summarizer (`extractive`): one chunk, no token usage. It works in slices of a few
 * milliseconds, so the process keeps serving other requests meanwhile (a 3-hour transcript is
 * ~100 ms of CPU), and throws the signal's reason if it aborts.
 */
export function createExtractiveSummarizer(): Summarizer {
  return {
    async summarize(input: SummarizeInput): Promise<SummaryResult> {
      const { transcript, signal } = input;
      if (!sameLanguage(input.summaryLanguage, transcript.language)) {
        throw new UnprocessableError(
          'summary-language-unsupported',
          'Summary language not supported',
          `The extractive model picks sentences of the transcript and cannot translate: the ` +
            `transcript is in "${transcript.language}", not "${input.summaryLanguage}". Ask ` +
            'for that language, or choose a language model (used_model).',
        );
      }
      const result = await runInSlices(summaryOf(input), signal);
      return { ...result, chunks: 1, inputTokens: null, outputTokens: null };
    },
  };
}
