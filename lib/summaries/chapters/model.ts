// Chapters a language model wrote. Each call that is asked for them answers, after
// its summary and key points, a "CHAPTERS:" line and then per chapter a line `[m:ss] Title` and a
// line or two on what it says. Like key points, the answer is untrusted and read leniently; every
// time is checked against the transcript: a chapter starts at the start of the caption it falls
// in, and one past the video's end or at no caption is dropped.

import { firstAtOrAfter } from '../../transcripts/anchors';
import { SHORTEST_CHAPTER_MS } from '../../transcripts/creator-chapters';
import { KEY_POINT_FORM, parseTimestamp, readTimedLine } from '../../transcripts/timed-line';
import type { Transcript } from '../../youtube/types';
import {
  type Chapter,
  type ChapterStart,
  chapterCount,
  chapterTitle,
  mergeChapters,
  withEnds,
} from './chapter';

/** A chapter as a model wrote it: its time is a claim until checked. */
export interface ClaimedChapter {
  atMs: number;
  title: string;
  summary: string;
}

// "CHAPTERS:", "**Chapters**", "## Chapters" on a line of their own (linear, as the key
// points' headings are).
const CHAPTERS_HEADING = /^[#*\s]*chapters[*\s:]*$/i;
// The headings that may follow the chapters and end them.
const OTHER_HEADING = /^[#*\s]*(?:summary|key\s*points)[*\s:]*$/i;
// "Title - what it says" on one line, when a model leaves out the line break: the title is the
// part before a spaced dash or a colon, if what follows is a sentence of its own.
const INLINE_SUMMARY = / [-–—] |: /;

/**
 * An answer without its chapters, and the chapters it claims: the lines under a "CHAPTERS:"
 * heading up to the next heading (or the end), each timed line starting a chapter and the lines
 * after it its summary. Without the heading there are none. Linear in the answer's length.
 */
export function splitChapters(answer: string): { rest: string; chapters: ClaimedChapter[] } {
  const lines = answer.replace(/\r\n?/g, '\n').split('\n');
  const heading = lines.findIndex((line) => CHAPTERS_HEADING.test(line));
  if (heading < 0) return { rest: answer, chapters: [] };
  let end = heading + 1;
  while (end < lines.length && !OTHER_HEADING.test(lines[end] ?? '')) end++;
  const chapters: ClaimedChapter[] = [];
  let current: ClaimedChapter | undefined;
  for (const line of lines.slice(heading + 1, end)) {
    const read = readTimedLine(line, KEY_POINT_FORM);
    const atMs = read ? parseTimestamp(read.time) : undefined;
    if (read && atMs !== undefined) {
      current = { atMs, title: read.text, summary: '' };
      chapters.push(current);
    } else if (current && line.trim() !== '') {
      current.summary = `${current.summary} ${line.trim()}`.trim();
    }
  }
  for (const chapter of chapters) {
    const inline = INLINE_SUMMARY.exec(chapter.title);
    if (chapter.summary === '' && inline) {
      const said = chapter.title.slice(inline.index + inline[0].length).trim();
      if (said.split(/\s+/).length >= 5) {
        chapter.summary = said;
        chapter.title = chapter.title.slice(0, inline.index);
      }
    }
    chapter.title = chapterTitle(chapter.title);
    chapter.summary = chapter.summary.replace(/\*\*/g, '').trim();
  }
  const rest = [...lines.slice(0, heading), ...lines.slice(end)].join('\n');
  return { rest, chapters: chapters.filter((chapter) => chapter.title !== '') };
}

/**
 * Where a claimed time starts, as the start of the caption it falls in: a time is written in
 * whole seconds, so a caption starting within that second is the one meant (the transcript marks
 * the model copies are such starts); else the caption that runs through it. Undefined at no
 * caption, or at or past the video's end.
 */
export function snapToCaption(
  transcript: Transcript,
  atMs: number,
  endMs: number,
): number | undefined {
  if (atMs >= endMs) return undefined;
  const { segments } = transcript;
  const next = firstAtOrAfter(segments, atMs);
  const within = segments[next];
  if (within && within.offsetMs < atMs + 1000) return within.offsetMs;
  const running = segments[next - 1];
  if (running && running.offsetMs + running.durationMs > atMs) return running.offsetMs;
  return undefined;
}

/** The claimed chapters the transcript bears out, each at the start of its caption. */
export function snapChapters(
  claimed: readonly ClaimedChapter[],
  transcript: Transcript,
  endMs: number,
): ChapterStart[] {
  const snapped: ChapterStart[] = [];
  for (const { atMs, title, summary } of claimed) {
    const startMs = snapToCaption(transcript, atMs, endMs);
    if (startMs !== undefined) snapped.push({ startMs, title, summary });
  }
  return snapped;
}

/**
 * A model's chapters for the whole video, from those each call gave: in order, one per caption,
 * the first at 0, none shorter than 10 s, and at most as many as the video's length calls for
 * (the shortest merged into a neighbour). Empty when fewer than two are left: the caller then
 * makes them offline.
 */
export function combineModelChapters(starts: readonly ChapterStart[], endMs: number): Chapter[] {
  const { max } = chapterCount(endMs);
  if (max === 0) return [];
  const chapters = mergeChapters(withEnds(starts, endMs), max, SHORTEST_CHAPTER_MS);
  return chapters.length >= 2 ? chapters : [];
}
