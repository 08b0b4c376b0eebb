// Where the timeline puts a summary's chapters and key points (web/summaries/timeline-layout.ts):
// percentages of the video's length, clamped to the bar, and a length derived when YouTube gave
// none; marks too close for a finger's hit area on a phone take another row.
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../../web/api';
import {
  chapterLabel,
  keyPointLabel,
  MARK_GAP_PERCENT,
  MARK_LANES,
  marksOf,
  percentOf,
  segmentsOf,
  spanOf,
  timelineText,
} from '../../../web/summaries/timeline-layout';

const url = (seconds: number) => `https://www.youtube.com/watch?v=abc&t=${Math.floor(seconds)}s`;
const chapter = (start: number, end: number, title: string) => ({
  start_seconds: start,
  end_seconds: end,
  title,
  summary: `What ${title} says.`,
  url: url(start),
});
const point = (start: number, text: string) => ({ start_seconds: start, text, url: url(start) });

/** A summary with just what the timeline reads (the rest of the metadata does not matter). */
function summaryOf(parts: {
  duration: number | null;
  chapters?: ReturnType<typeof chapter>[];
  points?: ReturnType<typeof point>[];
}): Summary {
  return {
    summary: 'A summary.',
    word_count: 2,
    chapters: parts.chapters,
    key_points: parts.points,
    metadata: { duration_seconds: parts.duration },
  } as unknown as Summary;
}

describe('spanOf', () => {
  it('is the video’s length when YouTube gave it', () => {
    const summary = summaryOf({ duration: 600, chapters: [chapter(0, 600, 'All')] });
    expect(spanOf(summary)).toEqual({ seconds: 600, known: true });
  });

  it('runs to the last chapter’s end or key point when the length is unknown', () => {
    const chapters = [chapter(0, 185, 'Intro'), chapter(185, 460, 'Roots')];
    expect(spanOf(summaryOf({ duration: null, chapters }))).toEqual({ seconds: 460, known: false });
    const points = [point(12, 'First'), point(300.5, 'Last')];
    expect(spanOf(summaryOf({ duration: null, points }))).toEqual({
      seconds: 300.5,
      known: false,
    });
  });

  it('reaches past a length shorter than the chapters, as the API’s chapters do', () => {
    const summary = summaryOf({ duration: 316, chapters: [chapter(0, 3600, 'An hour')] });
    expect(spanOf(summary)).toEqual({ seconds: 3600, known: true });
  });

  it('is at least a second, so a lone key point at 0 divides by something', () => {
    expect(spanOf(summaryOf({ duration: 0, points: [point(0, 'At once')] }))).toEqual({
      seconds: 1,
      known: false,
    });
  });
});

describe('percentOf', () => {
  const span = { seconds: 200, known: true };

  it('places a moment as a percentage of the span, to two decimals', () => {
    expect(percentOf(0, span)).toBe(0);
    expect(percentOf(50, span)).toBe(25);
    expect(percentOf(200, span)).toBe(100);
    expect(percentOf(1, { seconds: 3, known: true })).toBe(33.33);
  });

  it('clamps what falls outside the bar, and takes what is not a number for its start', () => {
    expect(percentOf(-5, span)).toBe(0);
    expect(percentOf(250, span)).toBe(100);
    expect(percentOf(Number.NaN, span)).toBe(0);
    expect(percentOf(Number.POSITIVE_INFINITY, span)).toBe(0);
  });
});

describe('segmentsOf', () => {
  it('lays the chapters end to end, each as wide as it lasts', () => {
    const chapters = [
      chapter(0, 185, 'Intro'),
      chapter(185, 460, 'Roots'),
      chapter(460, 1000, 'End'),
    ];
    const segments = segmentsOf(chapters, { seconds: 1000, known: true });
    expect(segments.map(({ left, width }) => [left, width])).toEqual([
      [0, 18.5],
      [18.5, 27.5],
      [46, 54],
    ]);
    expect(segments[1]?.label).toBe('Chapter 2, Roots, 3:05 to 7:40');
  });

  it('never overhangs the bar, nor has a negative width', () => {
    const chapters = [chapter(900, 1200, 'Past the end'), chapter(50, 40, 'Backwards')];
    const segments = segmentsOf(chapters, { seconds: 1000, known: true });
    expect(segments.map(({ left, width }) => [left, width])).toEqual([
      [90, 10],
      [5, 0],
    ]);
    for (const { left, width } of segments) expect(left + width).toBeLessThanOrEqual(100);
  });
});

describe('marksOf', () => {
  const span = { seconds: 1000, known: true };

  it('puts marks far enough apart in one row', () => {
    const marks = marksOf([point(0, 'a'), point(100, 'b'), point(500, 'c')], span);
    expect(marks.map(({ left, lane }) => [left, lane])).toEqual([
      [0, 0],
      [10, 0],
      [50, 0],
    ]);
  });

  it('moves a mark closer than the gap to the next row, and back when there is room', () => {
    const gapSeconds = (MARK_GAP_PERCENT / 100) * span.seconds;
    const marks = marksOf(
      [point(100, 'a'), point(110, 'b'), point(100 + gapSeconds, 'c'), point(700, 'd')],
      span,
    );
    expect(marks.map((mark) => mark.lane)).toEqual([0, 1, 0, 0]);
  });

  it('shares the row whose last mark is furthest away when every row is crowded', () => {
    const crowd = Array.from({ length: MARK_LANES + 1 }, (_, i) => point(100 + i, `p${i}`));
    const marks = marksOf(crowd, span);
    expect(marks.map((mark) => mark.lane)).toEqual([...Array(MARK_LANES).keys(), 0]);
  });

  it('names each key point by its number, time and words, "about" when estimated', () => {
    const [mark] = marksOf([point(252, 'Roots grow down.')], span);
    expect(mark?.label).toBe('Key point 1, at 4:12: Roots grow down.');
    const estimated = { ...point(252, 'Roots grow down.'), time_estimated: true as const };
    expect(keyPointLabel(2, estimated, 3)).toBe(
      'Key point 2, at about 4:12 (in chapter 3): Roots grow down.',
    );
  });
});

describe('timelineText', () => {
  it('tells chapters and key points in the video’s order, each point with its chapter', () => {
    const span = { seconds: 460, known: true };
    const chapters = [chapter(0, 185, 'Intro'), chapter(185, 460, 'Roots')];
    const segments = segmentsOf(chapters, span);
    const marks = marksOf([point(30, 'Early.'), point(185, 'At the turn.')], span);
    expect(timelineText(segments, marks).map((line) => line.text)).toEqual([
      chapterLabel(1, chapters[0] as ReturnType<typeof chapter>),
      'Key point 1, at 0:30 (in chapter 1): Early.',
      'Chapter 2, Roots, 3:05 to 7:40',
      'Key point 2, at 3:05 (in chapter 2): At the turn.',
    ]);
  });

  it('names no chapter for key points of a video without chapters', () => {
    const span = { seconds: 100, known: true };
    const marks = marksOf([point(5, 'Only.')], span);
    expect(timelineText([], marks).map((line) => line.text)).toEqual([
      'Key point 1, at 0:05: Only.',
    ]);
  });
});
