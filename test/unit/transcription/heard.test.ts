// A backend's answer placed in the file it was heard in, then in the video: what a hostile or
// broken server sends (times past the end, before the start, not numbers, out of order) never
// reaches a key point, and parts join in order with their language and timing.
import { describe, expect, it } from 'vitest';
import { joinHeard, OVERHANG_MS, placeHeard } from '../../../lib/transcription/heard';

const line = (startMs: number, endMs: number, text = `at ${startMs}`) => ({ startMs, endMs, text });

describe('placeHeard', () => {
  it('moves the segments of a part to its place in the video', () => {
    const placed = placeHeard(
      { segments: [line(0, 4_000), line(4_000, 9_000)] },
      600_000,
      1_200_000,
    );

    expect(placed.segments.map((segment) => [segment.startMs, segment.endMs])).toEqual([
      [1_200_000, 1_204_000],
      [1_204_000, 1_209_000],
    ]);
    expect(placed.timing).toBe('segments');
  });

  it('drops segments past the file’s end or before its start, and cuts one that runs over', () => {
    const heard = {
      segments: [
        line(-5_000, 1_000),
        line(10_000, 20_000),
        line(475_000, 490_000),
        line(1e15, 1e15 + 1_000),
        line(480_000 + OVERHANG_MS + 1, 480_000 + OVERHANG_MS + 2),
      ],
    };

    const placed = placeHeard(heard, 480_000, 0);

    expect(placed.segments.map((segment) => [segment.startMs, segment.endMs])).toEqual([
      [10_000, 20_000],
      [475_000, 480_000],
    ]);
  });

  it('drops times that are not finite numbers, and orders the rest by their start', () => {
    const heard = {
      segments: [
        line(30_000, 31_000),
        line(Number.NaN, 1_000),
        line(5_000, Number.POSITIVE_INFINITY),
        line(10_000, 9_000),
        line(1_000, 2_000),
      ],
    };

    const placed = placeHeard(heard, 60_000, 0);

    expect(placed.segments.map((segment) => [segment.startMs, segment.endMs])).toEqual([
      [1_000, 2_000],
      [10_000, 10_000],
      [30_000, 31_000],
    ]);
  });

  it('marks every segment of an estimated answer', () => {
    const placed = placeHeard({ timing: 'estimated', segments: [line(0, 1_000)] }, 5_000, 0);

    expect(placed.timing).toBe('estimated');
    expect(placed.segments[0]?.estimated).toBe(true);
  });
});

describe('joinHeard', () => {
  it('joins parts in order, in the language most was heard in, estimated when any part was', () => {
    const joined = joinHeard([
      { language: 'english', timing: 'segments', segments: [line(0, 1), line(1, 2), line(2, 3)] },
      {
        language: 'welsh',
        timing: 'estimated',
        segments: [{ ...line(600, 601), estimated: true }],
      },
      { timing: 'segments', segments: [line(1200, 1201)] },
    ]);

    expect(joined.segments.map((segment) => segment.startMs)).toEqual([0, 1, 2, 600, 1200]);
    expect(joined.language).toBe('english');
    expect(joined.timing).toBe('estimated');
  });
});
