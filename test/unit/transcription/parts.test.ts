// Planning the parts of long audio: within both limits, every segment once and in order, evened
// out (no sliver of a last part), and a segment too large for any part refused.
import { describe, expect, it } from 'vitest';
import { type AudioPart, PartTooLargeError, planParts } from '../../../lib/transcription/parts';
import type { MediaIndex } from '../../../lib/youtube/audio/segments';
import { Noise } from '../../support/media/writer';

const INIT = 500;

/** An index of segments of these sizes (bytes) and lengths (ms), after a 500-byte init. */
function indexOf(segments: { size: number; ms: number }[]): MediaIndex {
  let start = INIT + 1_000;
  let time = 0;
  return {
    container: 'webm',
    init: { start: 0, end: INIT },
    segments: segments.map(({ size, ms }) => {
      const segment = { bytes: { start, end: start + size }, startMs: time, endMs: time + ms };
      start += size;
      time += ms;
      return segment;
    }),
    durationMs: time,
  };
}

/** Segments of 2 to 8 s at 20 to 80 kB/s, from a seed. */
function randomIndex(count: number, seed: number): MediaIndex {
  const noise = new Noise(seed);
  return indexOf(
    Array.from({ length: count }, () => {
      const ms = 2_000 + (noise.next() % 6_000);
      return { ms, size: Math.round((ms / 1000) * (20_000 + (noise.next() % 60_000))) };
    }),
  );
}

const lengthOf = (part: AudioPart) => part.endMs - part.startMs;

describe('planParts', () => {
  it.each([
    ['bytes', { maxBytes: 3_000_000, maxMs: 3_600_000 }],
    ['minutes', { maxBytes: 25_000_000, maxMs: 300_000 }],
    ['both', { maxBytes: 2_000_000, maxMs: 60_000 }],
  ])('keeps every part within its limits when %s bind', (_binding, limits) => {
    const index = randomIndex(600, 7);

    const parts = planParts(index, limits);

    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.size).toBeLessThanOrEqual(limits.maxBytes);
      expect(lengthOf(part)).toBeLessThanOrEqual(limits.maxMs);
      expect(part.size).toBe(INIT + part.bytes.end - part.bytes.start);
    }
  });

  it('puts every segment in exactly one part, in order', () => {
    const index = randomIndex(400, 11);

    const parts = planParts(index, { maxBytes: 4_000_000, maxMs: 600_000 });

    const first = index.segments[0];
    const last = index.segments.at(-1);
    expect(parts[0]).toMatchObject({ number: 1, startMs: 0, bytes: { start: first?.bytes.start } });
    expect(parts.at(-1)).toMatchObject({ endMs: last?.endMs, bytes: { end: last?.bytes.end } });
    for (const [i, part] of parts.entries()) {
      expect(part).toMatchObject({ number: i + 1, count: parts.length });
      if (i > 0) expect(part.bytes.start).toBe(parts[i - 1]?.bytes.end);
      if (i > 0) expect(part.startMs).toBe(parts[i - 1]?.endMs);
      // Parts cut between segments, never inside one.
      expect(index.segments.some((segment) => segment.bytes.start === part.bytes.start)).toBe(true);
      expect(index.segments.some((segment) => segment.endMs === part.endMs)).toBe(true);
    }
  });

  it('evens out parts: 100 ten-second segments in parts of 5 minutes make 4 of 25, not 30+30+30+10', () => {
    const index = indexOf(Array.from({ length: 100 }, () => ({ size: 10_000, ms: 10_000 })));

    const parts = planParts(index, { maxBytes: 25_000_000, maxMs: 300_000 });

    expect(parts.map(lengthOf)).toEqual([250_000, 250_000, 250_000, 250_000]);
  });

  it.each([
    [
      'minutes',
      (total: { bytes: number; ms: number }) => ({ maxBytes: 1e9, maxMs: total.ms / 3.03 }),
    ],
    [
      'bytes',
      (total: { bytes: number; ms: number }) => ({
        maxBytes: INIT + total.bytes / 3.03,
        maxMs: 1e9,
      }),
    ],
  ])('leaves no sliver of a last part when %s bind', (_binding, limitsFor) => {
    // A third of the audio and a hair less a part: filled greedily, three full parts and 1 %.
    const index = randomIndex(500, 3);
    const bytes = index.segments.reduce((sum, s) => sum + s.bytes.end - s.bytes.start, 0);
    const limits = limitsFor({ bytes, ms: index.durationMs });

    const parts = planParts(index, limits);

    // How full each part is, by whichever limit binds it.
    const fill = parts.map((part) =>
      Math.max(part.size / limits.maxBytes, lengthOf(part) / limits.maxMs),
    );
    expect(parts).toHaveLength(4);
    // Segments of up to 8 s in parts of ten minutes: the parts differ by a segment or two.
    expect(Math.min(...fill) / Math.max(...fill)).toBeGreaterThan(0.95);
  });

  it('makes as few parts as the limits allow', () => {
    const index = randomIndex(500, 5);
    const total = index.segments.reduce((sum, s) => sum + s.bytes.end - s.bytes.start, 0);

    const parts = planParts(index, { maxBytes: 4_000_000, maxMs: 24 * 3_600_000 });

    // Each part but the last could not take its next segment: never more than one part spare.
    expect(parts.length).toBeLessThanOrEqual(Math.ceil(total / (4_000_000 - INIT)) + 1);
  });

  it('makes one part of audio that fits whole', () => {
    const index = randomIndex(20, 3);

    const parts = planParts(index, { maxBytes: 25_000_000, maxMs: 3_600_000 });

    expect(parts).toEqual([
      expect.objectContaining({ number: 1, count: 1, startMs: 0, endMs: index.durationMs }),
    ]);
  });

  it('makes a part of a segment longer than maxMs on its own', () => {
    const index = indexOf([
      { size: 1_000, ms: 50_000 },
      { size: 1_000, ms: 200_000 },
      { size: 1_000, ms: 50_000 },
    ]);

    const parts = planParts(index, { maxBytes: 1_000_000, maxMs: 120_000 });

    expect(parts.map(lengthOf)).toEqual([50_000, 200_000, 50_000]);
  });

  it('refuses a segment that does not fit in a part with the init segment', () => {
    const index = indexOf([
      { size: 1_000, ms: 5_000 },
      { size: 2_000_000, ms: 5_000 },
    ]);

    const plan = () => planParts(index, { maxBytes: 2_000_000, maxMs: 600_000 });

    expect(plan).toThrow(PartTooLargeError);
    expect(plan).toThrow(/2000000 bytes/);
  });

  it('refuses limits that are not positive', () => {
    expect(() => planParts(randomIndex(5, 1), { maxBytes: 0, maxMs: 1 })).toThrow(RangeError);
  });
});
