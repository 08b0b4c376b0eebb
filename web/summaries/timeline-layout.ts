// Where a summary's chapters and key points sit on its timeline bar, as percentages of the
// video's length, and what each is called for people who cannot see the bar. Pure functions, so
// the geometry is tested without a browser.
import type { Summary } from '../api';
import { clock } from '../times';

type Chapter = NonNullable<Summary['chapters']>[number];
type KeyPoint = NonNullable<Summary['key_points']>[number];

/** How long the bar is, in seconds, and whether YouTube said so or it was derived. */
export interface Span {
  seconds: number;
  /** YouTube gave the video's length; false: the bar ends at the last moment known. */
  known: boolean;
}

/** A chapter as a segment of the bar: from `left` percent, `width` percent wide. */
export interface Segment {
  /** 1 for the first chapter. */
  number: number;
  chapter: Chapter;
  left: number;
  width: number;
  label: string;
}

/** A key point as a mark on the bar, at `left` percent, in row `lane` (0 the first). */
export interface Mark {
  /** 1 for the first key point. */
  number: number;
  point: KeyPoint;
  left: number;
  lane: number;
  label: string;
}

/**
 * Marks closer than this (percent of the bar) go to different rows, so each keeps a hit area
 * of 1.5rem (24 px) on a 390 px phone, whose bar is some 300 px wide (24 / 300 = 8%).
 */
export const MARK_GAP_PERCENT = 8;
/** Rows of marks at most: past these, marks share the row whose last mark is furthest away. */
export const MARK_LANES = 3;

const finite = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * The bar's length: the video's, or where the last chapter ends or the last key point is when
 * that is later (as the API's chapters do) or the length unknown; at least one second.
 */
export function spanOf(summary: Summary): Span {
  const duration = finite(summary.metadata.duration_seconds);
  const lastMoment = Math.max(
    0,
    ...(summary.chapters ?? []).map((chapter) => finite(chapter.end_seconds)),
    ...(summary.key_points ?? []).map((point) => finite(point.start_seconds)),
  );
  return { seconds: Math.max(1, duration, lastMoment), known: duration > 0 };
}

/** `seconds` as a percentage of the span, clamped to the bar (0 for what is not a number). */
export function percentOf(seconds: number, span: Span): number {
  if (!Number.isFinite(seconds)) return 0;
  const percent = (seconds / span.seconds) * 100;
  return Math.min(100, Math.max(0, Math.round(percent * 100) / 100));
}

/** "Chapter 2, Roots, 3:05 to 7:40". */
export function chapterLabel(number: number, chapter: Chapter): string {
  return `Chapter ${number}, ${chapter.title}, ${clock(chapter.start_seconds)} to ${clock(chapter.end_seconds)}`;
}

/**
 * "Key point 3, at 4:12: what it says" ("about 4:12" when the time is estimated), with "(in
 * chapter 2)" after the time when `chapter` is given.
 */
export function keyPointLabel(number: number, point: KeyPoint, chapter?: number): string {
  const at = `${point.time_estimated ? 'about ' : ''}${clock(point.start_seconds)}`;
  const within = chapter === undefined ? '' : ` (in chapter ${chapter})`;
  return `Key point ${number}, at ${at}${within}: ${point.text}`;
}

/** The chapters as segments, in their order; none overhangs the bar. */
export function segmentsOf(chapters: readonly Chapter[], span: Span): Segment[] {
  return chapters.map((chapter, i) => {
    const left = percentOf(chapter.start_seconds, span);
    const right = percentOf(chapter.end_seconds, span);
    return {
      number: i + 1,
      chapter,
      left,
      width: Math.max(0, Math.round((right - left) * 100) / 100),
      label: chapterLabel(i + 1, chapter),
    };
  });
}

/**
 * The key points as marks, in their order. Each goes to the first row whose last mark is at
 * least `gap` percent before it; when every row is that crowded, to the row whose last mark is
 * furthest before it.
 */
export function marksOf(
  points: readonly KeyPoint[],
  span: Span,
  gap = MARK_GAP_PERCENT,
  lanes = MARK_LANES,
): Mark[] {
  const lastInLane: number[] = [];
  return points.map((point, i) => {
    const left = percentOf(point.start_seconds, span);
    let lane = lastInLane.findIndex((last) => left - last >= gap);
    if (lane === -1 && lastInLane.length < lanes) lane = lastInLane.length;
    if (lane === -1) lane = lastInLane.indexOf(Math.min(...lastInLane));
    lastInLane[lane] = left;
    return { number: i + 1, point, left, lane, label: keyPointLabel(i + 1, point) };
  });
}

/** The number of the chapter `seconds` falls in (the last that starts at or before it). */
export function chapterAt(seconds: number, segments: readonly Segment[]): number | undefined {
  let found: number | undefined;
  for (const segment of segments) {
    if (segment.chapter.start_seconds <= seconds) found = segment.number;
  }
  return found;
}

/** One line of the timeline told as text: a chapter, or a key point and the chapter it is in. */
export interface TextLine {
  key: string;
  text: string;
}

/** The chapters and key points in the order they come in the video (a chapter first on a tie). */
export function timelineText(segments: readonly Segment[], marks: readonly Mark[]): TextLine[] {
  const lines = [
    ...segments.map((segment) => ({
      at: segment.chapter.start_seconds,
      order: 0,
      key: `chapter-${segment.number}`,
      text: segment.label,
    })),
    ...marks.map((mark) => ({
      at: mark.point.start_seconds,
      order: 1,
      key: `point-${mark.number}`,
      text: keyPointLabel(mark.number, mark.point, chapterAt(mark.point.start_seconds, segments)),
    })),
  ];
  lines.sort((a, b) => a.at - b.at || a.order - b.order);
  return lines.map(({ key, text }) => ({ key, text }));
}
