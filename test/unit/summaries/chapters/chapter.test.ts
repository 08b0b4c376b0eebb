// The rules every list of chapters keeps, wherever it came from.
import { describe, expect, it } from 'vitest';
import {
  type Chapter,
  chapterCount,
  chapterSummary,
  chapterTitle,
  mergeChapters,
  withEnds,
} from '../../../../lib/summaries/chapters/chapter';

const minutes = (m: number) => m * 60_000;

describe('chapterCount', () => {
  it('gives none under five minutes', () => {
    expect(chapterCount(minutes(4.9))).toEqual({ min: 0, target: 0, max: 0 });
  });

  it('asks 2 to 6 chapters of a 10-minute video', () => {
    const { min, target, max } = chapterCount(minutes(10));

    expect(min).toBeGreaterThanOrEqual(2);
    expect(max).toBeLessThanOrEqual(6);
    expect(target).toBeGreaterThanOrEqual(min);
    expect(target).toBeLessThanOrEqual(max);
  });

  it('asks 10 to 45 chapters of a 3-hour video, about one per 4-8 minutes', () => {
    const { min, target, max } = chapterCount(minutes(180));

    expect(min).toBeGreaterThanOrEqual(10);
    expect(max).toBeLessThanOrEqual(45);
    expect(target).toBeGreaterThanOrEqual(180 / 8);
    expect(target).toBeLessThanOrEqual(180 / 4);
  });

  it('never asks more than 45, however long the video', () => {
    expect(chapterCount(minutes(12 * 60)).max).toBe(45);
  });
});

describe('chapterTitle', () => {
  it('keeps a short title, without Markdown emphasis or surrounding quotes', () => {
    expect(chapterTitle('**"Kernels and edges"**')).toBe('Kernels and edges');
  });

  it('cuts a long title at a word, under 80 characters', () => {
    const title = chapterTitle(`How ${'convolutional '.repeat(10)}networks learn`);

    expect(title.length).toBeLessThan(80);
    expect(title).toMatch(/^How convolutional .*convolutional…$/);
  });
});

describe('withEnds', () => {
  it('orders chapters, starts the first at 0, ends each at the next and the last at the end', () => {
    const chapters = withEnds(
      [
        { startMs: 90_000, title: 'B', summary: '' },
        { startMs: 4_000, title: 'A', summary: '' },
        { startMs: 90_000, title: 'B again', summary: '' },
        { startMs: 700_000, title: 'Past the end', summary: '' },
      ],
      600_000,
    );

    expect(chapters).toEqual([
      { startMs: 0, endMs: 90_000, title: 'A', summary: '' },
      { startMs: 90_000, endMs: 600_000, title: 'B', summary: '' },
    ]);
  });
});

describe('mergeChapters', () => {
  const chapter = (startMs: number, endMs: number, title: string): Chapter => ({
    startMs,
    endMs,
    title,
    summary: `${title} is said here.`,
  });

  it('merges the shortest into its shorter neighbour until at most `max` are left', () => {
    const merged = mergeChapters(
      [
        chapter(0, 100, 'A'),
        chapter(100, 130, 'B'),
        chapter(130, 400, 'C'),
        chapter(400, 500, 'D'),
      ],
      3,
    );

    expect(merged.map((c) => [c.startMs, c.endMs, c.title])).toEqual([
      [0, 130, 'A'],
      [130, 400, 'C'],
      [400, 500, 'D'],
    ]);
    expect(merged[0]?.summary).toBe('A is said here. B is said here.');
  });

  it('merges chapters shorter than the shortest allowed', () => {
    const merged = mergeChapters(
      [chapter(0, 60_000, 'A'), chapter(60_000, 65_000, 'B')],
      10,
      10_000,
    );

    expect(merged.map((c) => [c.startMs, c.endMs, c.title])).toEqual([[0, 65_000, 'A']]);
  });
});

describe('chapterSummary', () => {
  it('keeps the first three sentences, each as written', () => {
    expect(
      chapterSummary('It costs 3.5 dollars (v1.2). "It works!" Is it fast? Yes… And more. Done.'),
    ).toBe('It costs 3.5 dollars (v1.2). "It works!" Is it fast?');
  });

  it('keeps a summary of three sentences or fewer as it is', () => {
    expect(chapterSummary(' One. Two 2.0 words ')).toBe('One. Two 2.0 words');
    expect(chapterSummary('No end mark at all')).toBe('No end mark at all');
  });
});
