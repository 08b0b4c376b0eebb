// Chapters without a model: where a transcript changes subject (TextTiling, pauses, transition
// phrases), and each chapter's title and summary.
import { describe, expect, it } from 'vitest';
import { offlineChapters } from '../../../../lib/summaries/chapters/offline';
import {
  opensTransition,
  segmentBoundaries,
  type TimedTerms,
} from '../../../../lib/summaries/chapters/segments';
import { rankTranscript } from '../../../../lib/summaries/extractive/summarizer';
import { runToEnd } from '../../../../lib/util/cooperative';
import { countWords } from '../../../../lib/util/words';
import {
  buildLongTranscript,
  loadSharedTranscript,
  plainWords,
  transcriptFromLines,
} from '../../../support/transcripts';

/** Sentences on three subjects in turn, `each` of each, said at a steady rate. */
function threeSubjects(each: number): string[] {
  const subjects = [
    ['oven', 'bread', 'dough', 'flour', 'yeast', 'crust', 'butter', 'recipe'],
    ['telescope', 'planet', 'orbit', 'galaxy', 'comet', 'stars', 'moon', 'astronomer'],
    ['football', 'goal', 'striker', 'referee', 'stadium', 'penalty', 'keeper', 'league'],
  ];
  return subjects.flatMap((words) =>
    Array.from(
      { length: each },
      (_, i) =>
        `We talked about the ${words[i % 8]} and the ${words[(i + 3) % 8]} and then the ${words[(i + 5) % 8]} again.`,
    ),
  );
}

/** The sentences as the segmentation reads them (terms from the ranking's analysis). */
function timedTerms(lines: string[]): { units: TimedTerms[]; endMs: number } {
  const transcript = transcriptFromLines(lines);
  const units = runToEnd(rankTranscript(transcript));
  const last = transcript.segments.at(-1);
  return { units, endMs: (last?.offsetMs ?? 0) + (last?.durationMs ?? 0) };
}

describe('opensTransition', () => {
  it.each([
    "So, let's talk about pooling.",
    'Ok so now we look at the results.',
    'Moving on to the second experiment.',
    'The next thing is training.',
    'To sum up, kernels find edges.',
  ])('finds a transition in "%s"', (sentence) => {
    expect(opensTransition(sentence)).toBe(true);
  });

  it.each(['So the kernel slides over the image.', 'Next to the house is a pool.'])(
    'finds none in "%s"',
    (sentence) => {
      expect(opensTransition(sentence)).toBe(false);
    },
  );
});

describe('segmentBoundaries', () => {
  it('finds where the subject changes (TextTiling)', () => {
    const { units, endMs } = timedTerms(threeSubjects(30));

    const boundaries = runToEnd(segmentBoundaries(units, { target: 3, min: 2, endMs }));

    expect(boundaries).toHaveLength(2);
    expect(Math.abs((boundaries[0] ?? 0) - 30)).toBeLessThanOrEqual(2);
    expect(Math.abs((boundaries[1] ?? 0) - 60)).toBeLessThanOrEqual(2);
  });

  it('prefers a pause and a transition phrase where the words do not tell', () => {
    const lines = threeSubjects(60).slice(0, 60);
    lines[37] = "So, let's talk about the bread and the flour and then the yeast again.";
    const { units, endMs } = timedTerms(lines);
    // A long silence before the sentence with the transition.
    const paused = units.map((unit, i) =>
      i >= 37 ? { ...unit, startMs: unit.startMs + 8_000 } : unit,
    );

    const boundaries = runToEnd(
      segmentBoundaries(paused, { target: 2, min: 2, endMs: endMs + 8_000 }),
    );

    expect(boundaries).toEqual([37]);
    // The words alone put it elsewhere.
    const lexical = runToEnd(
      segmentBoundaries(paused, { target: 2, min: 2, endMs: endMs + 8_000, speech: false }),
    );
    expect(lexical).not.toEqual([37]);
  });

  it('finds none in a transcript too short to divide', () => {
    const { units, endMs } = timedTerms(['Just one sentence here.']);

    expect(runToEnd(segmentBoundaries(units, { target: 3, min: 2, endMs }))).toEqual([]);
  });
});

describe('offlineChapters', () => {
  it('divides the real 20-minute talk, each chapter titled and summarised from its own stretch', () => {
    const transcript = loadSharedTranscript();
    const sentences = runToEnd(rankTranscript(transcript));
    const last = transcript.segments.at(-1);
    const endMs = (last?.offsetMs ?? 0) + (last?.durationMs ?? 0);

    const { source, list } = runToEnd(offlineChapters(sentences, endMs));

    expect(source).toBe('offline');
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.length).toBeLessThanOrEqual(5);
    expect(list[0]?.startMs).toBe(0);
    expect(list.at(-1)?.endMs).toBe(endMs);
    for (const chapter of list) {
      expect(chapter.title.length).toBeGreaterThan(0);
      expect(chapter.title.length).toBeLessThan(80);
      expect(countWords(chapter.summary)).toBeGreaterThanOrEqual(5);
      expect(chapter.summary).not.toMatch(/^(?:Ok|So|Um|Uh|And)\b/);
      // Its summary is said within it.
      const stretch = plainWords(
        transcript.segments
          .filter((s) => s.offsetMs >= chapter.startMs && s.offsetMs < chapter.endMs)
          .map((s) => s.text)
          .join(' '),
      );
      const opening = plainWords(chapter.summary).split(' ').slice(1, 5).join(' ');
      expect(stretch).toContain(opening);
    }
  });

  it('gives 3 hours of talk 10 to 45 chapters', () => {
    const transcript = buildLongTranscript(27_000);
    const sentences = runToEnd(rankTranscript(transcript));
    const last = transcript.segments.at(-1);
    const endMs = (last?.offsetMs ?? 0) + (last?.durationMs ?? 0);

    const { list } = runToEnd(offlineChapters(sentences, endMs));

    expect(list.length).toBeGreaterThanOrEqual(10);
    expect(list.length).toBeLessThanOrEqual(45);
  });

  it('summarises the creator’s chapters instead, keeping their times and titles', () => {
    const transcript = loadSharedTranscript();
    const sentences = runToEnd(rankTranscript(transcript));
    const creator = [
      { startMs: 0, title: 'Intro' },
      { startMs: 300_000, title: 'Kernels' },
      { startMs: 700_000, title: 'Training' },
    ];

    const { source, list } = runToEnd(offlineChapters(sentences, 1_300_000, creator));

    expect(source).toBe('creator');
    expect(list.map((c) => [c.startMs, c.endMs, c.title])).toEqual([
      [0, 300_000, 'Intro'],
      [300_000, 700_000, 'Kernels'],
      [700_000, 1_300_000, 'Training'],
    ]);
    for (const chapter of list) expect(countWords(chapter.summary)).toBeGreaterThanOrEqual(5);
  });

  it('says so of a chapter whose captions say hardly a word, in a sentence of five words or more', () => {
    const talk = loadSharedTranscript();
    const shifted = talk.segments.map((segment) => ({
      ...segment,
      offsetMs: segment.offsetMs + 30_000,
    }));
    const segments = [
      { text: '[Music]', offsetMs: 0, durationMs: 20_000 },
      { text: 'Yes. Right.', offsetMs: 20_000, durationMs: 10_000 },
      ...shifted,
    ];
    const transcript = { ...talk, segments, text: segments.map((s) => s.text).join(' ') };
    const sentences = runToEnd(rankTranscript(transcript));
    const creator = [
      { startMs: 0, title: 'Intro' },
      { startMs: 30_000, title: 'The talk' },
      { startMs: 600_000, title: 'More of it' },
    ];

    const { list } = runToEnd(offlineChapters(sentences, 1_330_000, creator));

    expect(list.map((chapter) => chapter.title)).toEqual(['Intro', 'The talk', 'More of it']);
    for (const chapter of list) expect(countWords(chapter.summary)).toBeGreaterThanOrEqual(5);
    expect(list[0]?.summary).not.toContain('Music');
  });

  it('gives a video under five minutes none', () => {
    const transcript = buildLongTranscript(500);
    const sentences = runToEnd(rankTranscript(transcript));

    expect(runToEnd(offlineChapters(sentences, 4 * 60_000))).toEqual({ source: null, list: [] });
  });
});
