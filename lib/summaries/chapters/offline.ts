// Chapters without a model: the transcript cut where its subject changes, each
// part titled by its key terms, and summarised by its best sentences as the
// extractive ranking scores them. Also what the creator's chapters are summarised by when no
// model summarised them.

import type { CreatorChapter } from '../../transcripts/creator-chapters';
import { withoutFillers } from '../../transcripts/fillers';
import type { Steps } from '../../util/cooperative';
import {
  type Chapter,
  type ChapterStart,
  type Chapters,
  chapterCount,
  NO_CHAPTERS,
  SUMMARY_SENTENCES,
  withEnds,
} from './chapter';
import { segmentBoundaries } from './segments';
import { titlesOf } from './titles';

/** A sentence of the transcript with what the extractive summarizer knows of it. */
export interface RankedSentence {
  /** As the summary would show it. */
  text: string;
  /** Start of the caption where it begins. */
  startMs: number;
  /** Its distinct content terms (stems). */
  terms: readonly string[];
  /** The ranking's score (higher is more summary-worthy; only ratios matter). */
  score: number;
  words: number;
}

/** A chapter's summary: about this many words (and at most SUMMARY_SENTENCES sentences). */
const SUMMARY_WORDS = 45;
/** Sentences shorter than this do not summarise anything ("Yes, exactly."). */
const SUMMARY_MIN_WORDS = 5;
/** What a chapter without any sentence says (a silent demo). */
const NOTHING_SAID = 'The captions say nothing in this part of the video.';
/** What a chapter says whose sentences are all too short to summarise it ("[Music]", "Yes."). */
const LITTLE_SAID = 'The captions say little in this part of the video.';

/** The sentences from `from` up to `to` (exclusive) as a chapter: its sentences' indices. */
type Span = { from: number; to: number };

/**
 * A chapter's summary: its best sentences (score, times how central to the chapter they are),
 * adding the next best while under SUMMARY_WORDS and SUMMARY_SENTENCES, skipping those that repeat
 * one already chosen; in their order, without their fillers.
 */
function summaryOf(sentences: readonly RankedSentence[], span: Span): string {
  const inside = sentences.slice(span.from, span.to);
  const pool = inside.filter((sentence) => sentence.words >= SUMMARY_MIN_WORDS);
  if (pool.length === 0) return inside.length === 0 ? NOTHING_SAID : LITTLE_SAID;
  const counts = new Map<string, number>();
  for (const sentence of pool) {
    for (const term of sentence.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  const central = (sentence: RankedSentence) => {
    let shared = 0;
    for (const term of sentence.terms) shared += (counts.get(term) ?? 1) - 1;
    return sentence.terms.length === 0 ? 0 : shared / Math.sqrt(sentence.terms.length);
  };
  const ranked = pool
    .map((sentence) => ({ sentence, value: sentence.score * (1 + central(sentence)) }))
    .sort((a, b) => b.value - a.value);
  const chosen: RankedSentence[] = [];
  const seen = new Set<string>();
  let words = 0;
  for (const { sentence } of ranked) {
    if (chosen.length >= SUMMARY_SENTENCES || words >= SUMMARY_WORDS * 0.6) break;
    if (chosen.length > 0 && words + sentence.words > SUMMARY_WORDS * 1.3) continue;
    const repeats = sentence.terms.filter((term) => seen.has(term)).length;
    if (chosen.length > 0 && repeats > sentence.terms.length / 2) continue;
    chosen.push(sentence);
    words += sentence.words;
    for (const term of sentence.terms) seen.add(term);
  }
  return chosen
    .sort((a, b) => a.startMs - b.startMs)
    .map((sentence) => withoutFillers(sentence.text))
    .join(' ');
}

/** Index of the first sentence that starts at or after `ms` (sentences are in time order). */
function firstFrom(sentences: readonly RankedSentence[], ms: number): number {
  const found = sentences.findIndex((sentence) => sentence.startMs >= ms);
  return found < 0 ? sentences.length : found;
}

/** The creator's chapters, each summarised from its own stretch of the transcript. */
export function summarisedCreatorChapters(
  sentences: readonly RankedSentence[],
  creator: readonly CreatorChapter[],
  endMs: number,
): Chapter[] {
  const starts: ChapterStart[] = creator.map((chapter, i) => {
    const next = creator[i + 1]?.startMs ?? Number.POSITIVE_INFINITY;
    const span = { from: firstFrom(sentences, chapter.startMs), to: firstFrom(sentences, next) };
    return { startMs: chapter.startMs, title: chapter.title, summary: summaryOf(sentences, span) };
  });
  return withEnds(starts, Math.max(endMs, (creator.at(-1)?.startMs ?? 0) + 1));
}

/** Summaries for chapters that have none (a model left some out), from their stretch. */
export function fillSummaries(
  sentences: readonly RankedSentence[],
  chapters: readonly Chapter[],
): Chapter[] {
  return chapters.map((chapter) =>
    chapter.summary.trim() !== ''
      ? chapter
      : {
          ...chapter,
          summary: summaryOf(sentences, {
            from: firstFrom(sentences, chapter.startMs),
            to: firstFrom(sentences, chapter.endMs),
          }),
        },
  );
}

/**
 * The offline chapters of a transcript's sentences: the creator's when there are some, else the
 * segmentation's, as many as a video ending at `endMs` calls for; none under five minutes or when
 * the transcript is too short to divide.
 */
export function* offlineChapters(
  sentences: readonly RankedSentence[],
  endMs: number,
  creator: readonly CreatorChapter[] = [],
): Steps<Chapters> {
  if (creator.length > 0) {
    return { source: 'creator', list: summarisedCreatorChapters(sentences, creator, endMs) };
  }
  const count = chapterCount(
    endMs,
    sentences.reduce((sum, sentence) => sum + sentence.words, 0),
  );
  if (count.target === 0) return NO_CHAPTERS;
  const boundaries = yield* segmentBoundaries(sentences, { ...count, endMs });
  if (boundaries.length === 0) return NO_CHAPTERS;
  const cuts = [0, ...boundaries, sentences.length];
  const spans = cuts.slice(0, -1).map((from, i) => ({ from, to: cuts[i + 1] as number }));
  yield;
  const titles = titlesOf(spans.map((span) => sentences.slice(span.from, span.to)));
  yield;
  const starts = spans.map((span, i) => ({
    startMs: sentences[span.from]?.startMs ?? 0,
    title: titles[i] || `Part ${i + 1}`,
    summary: summaryOf(sentences, span),
  }));
  return { source: 'offline', list: withEnds(starts, endMs) };
}
