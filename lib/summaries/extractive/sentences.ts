// A transcript as sentences: cleaned of caption cues, split by wink-nlp when punctuated or by the
// pauses between caption lines when not, each timed at the start of the line where it begins.

import { cleanCaption, startsSentence } from '../../transcripts/captions';
import { runToEnd, type Steps } from '../../util/cooperative';
import { trimEndOf } from '../../util/text';
import { countWords } from '../../util/words';
import type { Transcript, TranscriptSegment } from '../../youtube/types';
import { english } from './english';

const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;
const CLAUSE_END = /[.!?…,;:\-–—]["'”’)\]]*$/u;
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

/** A sentence and the start of the caption line where it begins. */
export interface TimedSentence {
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

export function* split(transcript: Transcript): Steps<TimedSentence[]> {
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
