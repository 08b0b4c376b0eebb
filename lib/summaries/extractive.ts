// The offline summarizer: no network and no model download, so it works anywhere (the default
// locally). It splits the transcript into sentences, scores them without supervision and picks
// a budgeted, non-redundant subset in transcript order.

import winkNLP from 'wink-nlp';
import { runInSlices, runToEnd, type Steps } from '../cooperative';
import { requireShipped } from '../shipped';
import { countWords } from '../words';
import type { Transcript, TranscriptSegment } from '../youtube/types';
import type { SummarizeInput, Summarizer, SummaryResult } from './types';

type Model = typeof import('wink-eng-lite-web-model');

interface Language {
  nlp: ReturnType<typeof winkNLP>;
  stemWord: (word: string) => string;
}

let language: Language | undefined;

/**
 * Loads the English model now rather than on first use. It takes ~0.1-0.2 s of CPU in one
 * piece, which would stall every other request of the process: the local host calls this
 * while DynamoDB Local starts. On Lambda it loads on first use, so that a cold start that
 * never summarises offline skips it.
 */
export function loadLanguageModel(): void {
  english();
}

/** The English model, loaded on first use. */
function english(): Language {
  if (language) return language;
  const model = requireShipped<{ default?: Model } & Model>('wink-eng-lite-web-model');
  const loaded = model.default ?? model;
  // The model's Porter2 stemmer; typed `unknown` by wink, so check it rather than trust a cast.
  const porter2 = loaded.addons.stem;
  language = {
    // Sentence boundaries only: the full pipe (POS, NER, negation, sentiment) triples the cost
    // of readDoc (~12 ms vs ~4 ms for 3,300 words) and scoring does not use any of it.
    nlp: winkNLP(loaded, ['sbd']),
    stemWord:
      typeof porter2 === 'function' ? (porter2 as (word: string) => string) : (word) => word,
  };
  return language;
}

// Weight of a term shared by every sentence relative to one used once (log-scaled document
// frequency, so it means the same for a 10-sentence clip and a 2,000-sentence lecture), and the
// lead bonus of the first sentence (it decays as 1/(i+1)). Both tuned on the VT-SSum dev clips
// (bench/quality.ts); results are flat within ±2 of either value.
const CENTRALITY_WEIGHT = 6;
const LEAD_WEIGHT = 1.5;
// Terms of one or two letters are mostly ASR debris ("uh", "mm") or units without context.
const MIN_TERM_LENGTH = 3;

// Redundancy penalty of the selection (MMR) and how strongly it prefers dense sentences: gain is
// (score - penalty * similarity) / words^COST_EXPONENT. Tuned by ROUGE against the labelled
// sentences of whole VT-SSum videos, where any penalty and exponent from 0 to 0.5 score alike
// (higher values lose 1-4 ROUGE-1); a mild penalty is kept for videos that repeat themselves,
// and the exponent keeps long rambling sentences from eating a small budget.
const REDUNDANCY_WEIGHT = 0.3;
const COST_EXPONENT = 0.5;
// The selection aims inside ±10% so that rounding and the final trim stay inside ±15%.
const BUDGET_SLACK = 0.1;

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

// English function words plus the fillers of spoken language ("yeah", "gonna", "basically"):
// without the latter, "you know what I mean" ranks as content. Adding them was worth +1.5 F1.
const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been
  before being below between both but by can can't cannot could couldn't did didn't do does
  doesn't doing don't down during each few for from further had hadn't has hasn't have haven't
  having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll
  i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor
  not of off on once only or other ought our ours ourselves out over own same shan't she she'd
  she'll she's should shouldn't so some such than that that's the their theirs them themselves
  then there there's these they they'd they'll they're they've this those through to too under
  until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
  where's which while who who's whom why why's will with won't would wouldn't you you'd you'll
  you're you've your yours yourself yourselves yeah yes okay ok oh um uh hmm like just really
  actually basically going gonna wanna gotta get got know think mean well right thing things
  something anything everything kind sort lot little bit want say said saying see look one two
  may might much many way thank thanks sure stuff guess maybe probably pretty quite now today`
    .split(/\s+/)
    .filter(Boolean),
);

const TOKEN = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;
const CLAUSE_END = /[.!?…,;:\-–—]["'”’)\]]*$/u;
// Caption cues such as [Music], [offscreen], ♪ lyrics ♪ or *dog barks* are not speech; a single
// word in asterisks is emphasis (*it*) and stays.
const CUE = /\[[^\]]*\]|♪[^♪]*♪|\*[^*\s]+(?:\s+[^*\s]+)+\*/gu;

function contentTerms(sentence: string, stems: Map<string, string>): string[] {
  const { stemWord } = english();
  const terms = new Set<string>();
  for (const match of sentence.toLowerCase().replace(/’/g, "'").matchAll(TOKEN)) {
    const token = match[0];
    if (token.length < MIN_TERM_LENGTH || STOPWORDS.has(token)) continue;
    let stem = stems.get(token);
    if (stem === undefined) {
      stem = stemWord(token);
      stems.set(token, stem);
    }
    terms.add(stem);
  }
  return [...terms];
}

interface Analysis {
  /** Distinct content stems of each sentence. */
  terms: string[][];
  scores: number[];
}

// A sentence's score is the sum over its distinct content terms of 1 + w * ln(df) / ln(N): every
// content term counts (informativeness) and terms the rest of the text keeps returning to count
// more (centrality, as in MEAD's centroid), scaled by a decaying lead bonus (position).
function* analyse(sentences: string[]): Steps<Analysis> {
  const stems = new Map<string, string>();
  const terms: string[][] = [];
  for (const sentence of sentences) {
    terms.push(contentTerms(sentence, stems));
    yield;
  }
  const documentFrequency = new Map<string, number>();
  for (const list of terms) {
    for (const term of list) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const logN = Math.log(Math.max(sentences.length, 2));
  const scores = terms.map((list, i) => {
    let sum = 0;
    for (const term of list) {
      sum += 1 + (CENTRALITY_WEIGHT * Math.log(documentFrequency.get(term) ?? 1)) / logN;
    }
    return sum * (1 + LEAD_WEIGHT / (i + 1));
  });
  return { terms, scores };
}

/**
 * Scores each sentence (higher is more summary-worthy) by informativeness, centrality and
 * position; one score per input sentence, in input order, linear in the input's length.
 */
export function rankSentences(sentences: string[]): number[] {
  return runToEnd(analyse(sentences)).scores;
}

function cleanCaption(text: string): string {
  return text.replace(CUE, ' ').replace(/\s+/g, ' ').trim();
}

// Display form: capitalised and closed, as unpunctuated captions and split run-ons lack both.
// Word counts do not change.
function finishSentence(text: string): string {
  const trimmed = text.trim().replace(/^[,;:\-–—\s]+/u, '');
  if (!trimmed) return '';
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return SENTENCE_END.test(capitalised)
    ? capitalised
    : `${capitalised.replace(/[,;:\-–—]+$/u, '')}.`;
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

function* splitPunctuated(texts: string[]): Steps<string[]> {
  const lines = texts.map((text, i) => {
    const next = texts[i + 1];
    return next !== undefined && !CLAUSE_END.test(text) && startsSentence(next) ? `${text}.` : text;
  });
  const sentences: string[] = [];
  let piece: string[] = [];
  let pieceWords = 0;
  for (const [i, line] of lines.entries()) {
    piece.push(line);
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
    for (const sentence of english().nlp.readDoc(piece.join(' ')).sentences().out()) {
      for (const words of splitLongWords(
        sentence.split(/\s+/).filter(Boolean),
        MAX_PUNCTUATED_WORDS,
      )) {
        sentences.push(words.join(' '));
      }
    }
    piece = [];
    pieceWords = 0;
    yield;
  }
  return sentences;
}

interface Unit {
  words: string[];
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
function* splitByPauses(segments: TranscriptSegment[], texts: string[]): Steps<string[]> {
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
      units.push({ words: piece, pauseAfter: k === pieces.length - 1 ? (pauses[i] ?? 0) : 0 });
    });
  });
  const sentences: string[] = [];
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
    sentences.push(text.replace(/(^|\s)i(?=(?:['’]\p{L}+)?(?:\s|$))/gu, '$1I'));
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
  return runToEnd(split(transcript));
}

function* split(transcript: Transcript): Steps<string[]> {
  const segments = transcript.segments.map((segment) => ({
    ...segment,
    text: cleanCaption(segment.text),
  }));
  const kept = segments.filter((segment) => segment.text);
  const texts = kept.map((segment) => segment.text);
  const joined = texts.join(' ');
  const ends = joined.match(/[.!?…](?=["'”’)\]]*(?:\s|$))/gu)?.length ?? 0;
  const punctuated = ends * WORDS_PER_SENTENCE_END >= countWords(joined);
  const raw = punctuated ? yield* splitPunctuated(texts) : yield* splitByPauses(kept, texts);
  return raw.map(finishSentence).filter(Boolean);
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
  const kept = list
    .slice(0, cut)
    .join(' ')
    .replace(/[,;:.!?…]+$/u, '');
  return `${kept}…`;
}

/**
 * Picks sentences for a summary of about `targetWords` words (±15% when the text is long
 * enough; never more words than the text) and joins them in their original order.
 */
export function summarizeSentences(sentences: string[], targetWords: number): string {
  return runToEnd(summarize(sentences, targetWords));
}

function* summarize(sentences: string[], targetWords: number): Steps<string> {
  const lengths = sentences.map((sentence) => countWords(sentence));
  const available = lengths.reduce((a, b) => a + b, 0);
  if (available <= targetWords) return sentences.join(' ');

  const { terms, scores } = yield* analyse(sentences);
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
      if (chosen[i] || length === 0 || total + length > upper) continue;
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
    parts.set(best, sentences[best] ?? '');
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
      if (chosen[i] || (lengths[i] ?? 0) === 0) continue;
      if (best < 0 || (scores[i] ?? 0) > (scores[best] ?? 0)) best = i;
    }
    if (best >= 0 && room > 0)
      parts.set(best, trimSentence(sentences[best] ?? '', room, lower - total));
  }

  return [...parts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, text]) => text)
    .join(' ');
}

function* summaryOf(transcript: Transcript, targetWords: number): Steps<string> {
  const sentences = yield* split(transcript);
  return yield* summarize(sentences, targetWords);
}

/**
 * The offline summarizer (`extractive`): one chunk, no token usage. It works in slices of a few
 * milliseconds, so the process keeps serving other requests meanwhile (a 3-hour transcript is
 * ~100 ms of CPU), and throws the signal's reason if it aborts.
 */
export function createExtractiveSummarizer(): Summarizer {
  return {
    async summarize({ transcript, targetWords, signal }: SummarizeInput): Promise<SummaryResult> {
      const summary = await runInSlices(summaryOf(transcript, targetWords), signal);
      return { summary, chunks: 1, inputTokens: null, outputTokens: null };
    },
  };
}
