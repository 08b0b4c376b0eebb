// A model's chapters: read leniently from its answer, and held to the transcript's captions.
import { describe, expect, it } from 'vitest';
import {
  combineModelChapters,
  snapToCaption,
  splitChapters,
} from '../../../../lib/summaries/chapters/model';
import { transcriptFromLines } from '../../../support/transcripts';

describe('splitChapters', () => {
  it('reads the asked-for form: a timed title line, then what the chapter says', () => {
    const { rest, chapters } = splitChapters(
      [
        'SUMMARY:',
        'CNNs learn kernels.',
        'KEY POINTS:',
        '[1:20] Kernels find edges.',
        'CHAPTERS:',
        '[0:00] Introduction',
        'Why deep learning is everywhere now.',
        '- **[4:05]** **Kernels**',
        'A kernel slides over the image.',
        'It finds edges and corners.',
        '[1:02:03] Wrap-up - the speaker sums up what the network has learned',
      ].join('\n'),
    );

    expect(rest).toBe('SUMMARY:\nCNNs learn kernels.\nKEY POINTS:\n[1:20] Kernels find edges.');
    expect(chapters).toEqual([
      { atMs: 0, title: 'Introduction', summary: 'Why deep learning is everywhere now.' },
      {
        atMs: 245_000,
        title: 'Kernels',
        summary: 'A kernel slides over the image. It finds edges and corners.',
      },
      {
        atMs: 3_723_000,
        title: 'Wrap-up',
        summary: 'the speaker sums up what the network has learned',
      },
    ]);
  });

  it('ends the chapters at the next heading, and keeps what follows', () => {
    const { rest, chapters } = splitChapters(
      'SUMMARY:\nText.\nCHAPTERS:\n[0:00] Intro\nHello there everyone, welcome.\nKEY POINTS:\n[1:20] A point.',
    );

    expect(chapters.map((chapter) => chapter.title)).toEqual(['Intro']);
    expect(rest).toBe('SUMMARY:\nText.\nKEY POINTS:\n[1:20] A point.');
  });

  it('finds none without the heading, and leaves the answer as it is', () => {
    const answer = 'SUMMARY:\nText.\nKEY POINTS:\n[1:20] A point.';

    expect(splitChapters(answer)).toEqual({ rest: answer, chapters: [] });
  });

  it('cuts a title to under 80 characters', () => {
    const { chapters } = splitChapters(`CHAPTERS:\n[0:00] ${'Very long title words '.repeat(8)}`);

    expect(chapters[0]?.title.length).toBeLessThan(80);
  });
});

describe('snapToCaption', () => {
  // Lines of 10 words: 3.6 s each, 0.4 s pauses after those ending a sentence.
  const transcript = transcriptFromLines([
    'one two three four five six seven eight nine ten.',
    'one two three four five six seven eight nine ten',
    'one two three four five six seven eight nine ten.',
  ]);
  const [first, second, third] = transcript.segments;

  it('moves a time to the start of the caption that starts within its second', () => {
    expect(second?.offsetMs).toBe(4_000);
    expect(snapToCaption(transcript, 4_000, 60_000)).toBe(4_000);
  });

  it('moves a time inside a caption to that caption’s start', () => {
    expect(snapToCaption(transcript, 6_000, 60_000)).toBe(second?.offsetMs);
    expect(snapToCaption(transcript, 1_000, 60_000)).toBe(first?.offsetMs);
  });

  it('drops a time at no caption, or at or past the video’s end', () => {
    const end = (third?.offsetMs ?? 0) + (third?.durationMs ?? 0);

    expect(snapToCaption(transcript, end + 2_000, 60_000)).toBeUndefined();
    expect(snapToCaption(transcript, 60_000, 60_000)).toBeUndefined();
    expect(snapToCaption(transcript, 2_000, 1_000)).toBeUndefined();
  });
});

describe('combineModelChapters', () => {
  const start = (minute: number, title: string) => ({
    startMs: minute * 60_000,
    title,
    summary: `What ${title} says.`,
  });

  it('keeps at most the count the video’s length allows', () => {
    const starts = Array.from({ length: 20 }, (_, i) => start(i, `Part ${i + 1}`));

    const chapters = combineModelChapters(starts, 20 * 60_000);

    expect(chapters.length).toBeLessThanOrEqual(5);
    expect(chapters[0]?.startMs).toBe(0);
    expect(chapters.at(-1)?.endMs).toBe(20 * 60_000);
  });

  it('gives none when fewer than two are left, or the video is under five minutes', () => {
    expect(combineModelChapters([start(0, 'Only')], 20 * 60_000)).toEqual([]);
    expect(combineModelChapters([start(0, 'A'), start(2, 'B')], 4 * 60_000)).toEqual([]);
  });
});
