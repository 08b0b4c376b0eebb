// What a chapter of a summary is, wherever it came from (the creator's description, a model, the
// offline segmentation), and the rules every list of chapters keeps: in video order, the first at
// 0, each ending where the next starts and the last at the video's end, none on a video under
// five minutes, titles under 80 characters, a count that suits the video's length.

import { type CreatorChapter, creatorChapters } from '../../transcripts/creator-chapters';
import { trimEndOf } from '../../util/text';
import type { Transcript, VideoMetadata } from '../../youtube/types';

/** Where a summary's chapters came from (metadata.chapters_source). */
export const CHAPTER_SOURCES = ['creator', 'model', 'offline'] as const;
export type ChaptersSource = (typeof CHAPTER_SOURCES)[number];

/** A chapter as made: where it starts, what it is called and what it says. */
export interface ChapterStart {
  startMs: number;
  title: string;
  /** One to three sentences; empty until summarised. */
  summary: string;
}

/** A chapter of a finished summary. */
export interface Chapter extends ChapterStart {
  endMs: number;
}

/** A summary's chapters and where they came from (null when there are none). */
export interface Chapters {
  source: ChaptersSource | null;
  list: Chapter[];
}

export const NO_CHAPTERS: Chapters = { source: null, list: [] };

/** Videos shorter than this get no chapters: there is little to find one's way in. */
export const CHAPTERED_FROM_MS = 5 * 60_000;
/** The most chapters a summary carries (YouTube shows more, nobody reads them). */
export const MOST_CHAPTERS = 45;
/** Titles are under 80 characters. */
const TITLE_CHARS = 79;

/**
 * Where the video ends: its length as YouTube gives it, or where its last caption ends when that
 * is later (or the length unknown).
 */
export function videoEndMs(transcript: Transcript, metadata: VideoMetadata): number {
  const last = transcript.segments.at(-1);
  const captionsEnd = last ? last.offsetMs + last.durationMs : 0;
  return Math.max((metadata.duration_seconds ?? 0) * 1000, captionsEnd);
}

/** A chapter says at least this many words: a transcript of fewer than twice that has none. */
export const LEAST_CHAPTER_WORDS = 100;

/**
 * How many chapters suit a video of `durationMs` whose transcript says `words`: about one per
 * 4-8 minutes (aim: one per 6), at least 2 and at most MOST_CHAPTERS, and none under five minutes
 * or where the words do not make two chapters of LEAST_CHAPTER_WORDS. 10 minutes: 2-3; 3 hours:
 * 22-45.
 */
export function chapterCount(
  durationMs: number,
  words = Number.POSITIVE_INFINITY,
): { min: number; target: number; max: number } {
  const byWords = Math.floor(words / LEAST_CHAPTER_WORDS);
  if (durationMs < CHAPTERED_FROM_MS || byWords < 2) return { min: 0, target: 0, max: 0 };
  const minutes = durationMs / 60_000;
  const max = Math.min(MOST_CHAPTERS, byWords, Math.max(2, Math.ceil(minutes / 4)));
  const min = Math.min(max, Math.max(2, Math.floor(minutes / 8)));
  const target = Math.min(max, Math.max(min, Math.round(minutes / 6)));
  return { min, target, max };
}

/**
 * A title as shown: one line without Markdown emphasis or surrounding quotes, cut at a word to
 * under 80 characters (with an ellipsis).
 */
export function chapterTitle(text: string): string {
  const plain = text
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["“'‘](.*)["”'’]$/u, '$1')
    .trim();
  if (plain.length <= TITLE_CHARS) return plain;
  const cut = plain.slice(0, TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  const kept = space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, TITLE_CHARS - 1);
  return `${trimEndOf(kept, ' \t,;:.-–—')}…`;
}

/**
 * Chapters from their starts: sorted, one per start (the first kept), the first moved to 0, none
 * at or after the video's end, each ending where the next starts and the last at `endMs`.
 */
export function withEnds(starts: readonly ChapterStart[], endMs: number): Chapter[] {
  const sorted = [...starts]
    .filter((chapter) => chapter.startMs < endMs)
    .sort((a, b) => a.startMs - b.startMs)
    .filter((chapter, i, all) => i === 0 || chapter.startMs !== all[i - 1]?.startMs);
  return sorted.map((chapter, i) => ({
    ...chapter,
    startMs: i === 0 ? 0 : chapter.startMs,
    endMs: sorted[i + 1]?.startMs ?? endMs,
  }));
}

/**
 * Fewer chapters: while there are more than `max`, or one is shorter than `shortestMs`, the
 * shortest is merged into the neighbour that makes the shorter pair. The longer of the two keeps
 * its title; their summaries are joined (a chapter says at most three sentences).
 */
export function mergeChapters(
  chapters: readonly Chapter[],
  max: number,
  shortestMs = 0,
): Chapter[] {
  const list = [...chapters];
  const length = (chapter: Chapter) => chapter.endMs - chapter.startMs;
  while (list.length > 1) {
    let shortest = 0;
    for (let i = 1; i < list.length; i++) {
      if (length(list[i] as Chapter) < length(list[shortest] as Chapter)) shortest = i;
    }
    if (list.length <= max && length(list[shortest] as Chapter) >= shortestMs) break;
    const before = list[shortest - 1];
    const after = list[shortest + 1];
    const other =
      before && (!after || length(before) <= length(after)) ? shortest - 1 : shortest + 1;
    const first = Math.min(shortest, other);
    const [a, b] = [list[first] as Chapter, list[first + 1] as Chapter];
    const titled = length(a) >= length(b) ? a : b;
    list.splice(first, 2, {
      startMs: a.startMs,
      endMs: b.endMs,
      title: titled.title,
      summary: joinSummaries(a.summary, b.summary),
    });
  }
  return list;
}

/** A chapter's summary says one to this many sentences. */
export const SUMMARY_SENTENCES = 3;

// Where a sentence ends: its punctuation and any closing quote or bracket, then a space or the
// end ("3.5" and "v1.2" go on). One punctuation mark per match: linear.
const SENTENCE_END = /[.!?…][\]"'”’)]*(?=\s|$)/gu;

/** The sentences of a text, trimmed, each as written. */
function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    const sentence = text.slice(start, end).trim();
    if (sentence !== '') sentences.push(sentence);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}

/** A chapter's summary of at most SUMMARY_SENTENCES sentences: the first ones of `text`. */
export function chapterSummary(text: string): string {
  const sentences = sentencesOf(text);
  return sentences.length <= SUMMARY_SENTENCES
    ? text.trim()
    : sentences.slice(0, SUMMARY_SENTENCES).join(' ');
}

/** At most three sentences of two summaries, in order: the first one's, then the second's. */
function joinSummaries(a: string, b: string): string {
  return [...sentencesOf(a).slice(0, SUMMARY_SENTENCES - 1), ...sentencesOf(b)]
    .slice(0, SUMMARY_SENTENCES)
    .join(' ');
}

/**
 * The creator's chapters a summary of a video ending at `endMs` carries: none for a video under
 * five minutes, whoever divided it (a summary of one has no chapters, as the API says).
 */
export function chaptersOfVideo(description: string, endMs: number): CreatorChapter[] {
  return endMs < CHAPTERED_FROM_MS ? [] : creatorChapters(description, endMs);
}
