// readMediaIndex on files as YouTube serves them, real (encoded by ffmpeg) and generated, each
// checked against what ffprobe reads of the same bytes; which containers it cuts, the ranges it
// is given, and that any damage to a file's first bytes gives a MediaIndexError or a sound
// index, never another error, an endless loop or a huge allocation.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MediaIndex,
  MediaIndexError,
  readMediaIndex,
} from '../../../../lib/youtube/audio/segments';
import {
  type GeneratedAudio,
  indexedFormat,
  mp4Audio,
  webmAudio,
} from '../../../support/media/containers';
import {
  encodeMp4,
  encodeWebm,
  type Probe,
  probe,
  skipWithoutFfmpeg,
} from '../../../support/media/ffmpeg';
import { packetsBySegment } from '../../../support/media/packets';
import { Noise } from '../../../support/media/writer';

const SKIPPED = skipWithoutFfmpeg('media index tests against ffmpeg');

const webm = webmAudio({ durationMs: 30_000, bytesPerSecond: 2_000, clusterMs: 1_000, seed: 5 });
const mp4 = mp4Audio({ durationMs: 30_000, bytesPerSecond: 2_000, fragmentMs: 1_000, seed: 5 });

/** Whether an index keeps its promises: segments non-empty, contiguous in bytes and time. */
function sound(index: MediaIndex, fileLength: number): boolean {
  return index.segments.every((segment, i) => {
    const before = index.segments[i - 1];
    return (
      segment.bytes.end > segment.bytes.start &&
      segment.endMs > segment.startMs &&
      Number.isFinite(segment.endMs) &&
      segment.bytes.end <= fileLength &&
      (!before || (before.bytes.end === segment.bytes.start && before.endMs === segment.startMs))
    );
  });
}

/** What reading `head` as `audio`'s format does: 'index', 'refused', or the unexpected error. */
function outcome(audio: GeneratedAudio, head: Uint8Array, indexEnd?: number): string {
  const format = indexedFormat(audio);
  if (indexEnd !== undefined) format.indexRange = { ...format.indexRange, end: indexEnd };
  try {
    return sound(readMediaIndex(head, format), audio.bytes.length) ? 'index' : 'unsound index';
  } catch (error) {
    return error instanceof MediaIndexError ? 'refused' : String(error);
  }
}

/** The checks against ffprobe: every packet in a segment, each segment timed as its packets. */
function expectLinedUp(index: MediaIndex, probed: Probe, fileLength: number, frameMs: number) {
  const { firstPtsMs, counts, outside } = packetsBySegment(index, probed.packets);
  expect(probed.errors).toBe('');
  expect(outside).toBe(0);
  expect(counts.every((count) => count > 0)).toBe(true);
  for (const [i, segment] of index.segments.entries()) {
    expect(Math.abs((firstPtsMs[i] ?? Number.NaN) - segment.startMs)).toBeLessThanOrEqual(frameMs);
  }
  expect(index.segments.at(-1)?.bytes.end).toBe(fileLength);
  expect(Math.abs(index.durationMs - probed.durationMs)).toBeLessThanOrEqual(frameMs);
}

describe.skipIf(SKIPPED).each([
  // ffmpeg shifts Opus packets back by the codec delay (6.5 ms): within a frame (20 ms).
  // The generator's segments: clusters of 5 s; fragments of 10 s rounded to 431 AAC frames.
  { name: 'WebM/Opus', container: 'webm', encode: encodeWebm, frameMs: 20, generatedMs: 5_000 },
  {
    name: 'MP4/AAC',
    container: 'mp4',
    encode: encodeMp4,
    frameMs: 1024 / 44.1,
    generatedMs: (431 * 1024) / 44.1,
  },
])(
  'readMediaIndex on $name as YouTube serves it',
  ({ container, encode, frameMs, generatedMs }) => {
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'tubesum-index-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('finds every segment of a file ffmpeg encoded, timed as ffprobe times its packets', async () => {
      const audio = await encode(dir, 75, 2_000);

      const index = readMediaIndex(audio.bytes, indexedFormat(audio));

      expect(index.container).toBe(container);
      expect(index.init).toEqual({ start: 0, end: audio.initRange.end + 1 });
      expect(index.segments[0]?.bytes.start).toBe(audio.indexRange.end + 1);
      // Segments of about 2 s (MP4 fragments end on whole AAC frames).
      expect(index.segments.length).toBeGreaterThanOrEqual(75 / 2.1);
      expectLinedUp(index, await probe(audio.path), audio.bytes.length, frameMs);
    });

    it('reads a generated file as ffprobe does, a segment per cluster or fragment', async () => {
      const audio = (container === 'webm' ? webmAudio : mp4Audio)({
        durationMs: 61_000,
        bytesPerSecond: 6_000,
      });
      const path = join(dir, `generated.${container}`);
      await writeFile(path, audio.bytes);

      const index = readMediaIndex(audio.bytes, indexedFormat(audio));

      expect(index.durationMs).toBeCloseTo(audio.durationMs, 6);
      expect(index.segments).toHaveLength(Math.ceil(audio.durationMs / generatedMs));
      expectLinedUp(index, await probe(path), audio.bytes.length, frameMs);
    });
  },
);

describe('readMediaIndex', () => {
  it.each([
    ['audio/webm; codecs="opus"', webm, 'webm'],
    ['AUDIO/WEBM', webm, 'webm'],
    ['audio/mp4; codecs="mp4a.40.2"', mp4, 'mp4'],
  ] as const)('reads %s as %s', (mimeType, audio, container) => {
    const index = readMediaIndex(audio.bytes, { ...indexedFormat(audio), mimeType });

    expect(index.container).toBe(container);
  });

  it.each(['video/mp4', 'audio/ogg', 'audio/webmx', ''])('refuses to cut %j', (mimeType) => {
    expect(() => readMediaIndex(webm.bytes, { ...indexedFormat(webm), mimeType })).toThrow(
      MediaIndexError,
    );
  });

  it('refuses an index range that starts inside the init segment', () => {
    const format = indexedFormat(webm);

    const read = () =>
      readMediaIndex(webm.bytes, {
        ...format,
        initRange: { start: 0, end: format.indexRange.start + 1 },
      });

    expect(read).toThrow(/overlap/);
  });

  it.each([
    ['WebM', webm],
    ['MP4', mp4],
  ])(
    'gives a MediaIndexError or a sound index for %s with random bytes flipped',
    (_name, audio) => {
      const noise = new Noise(42);
      const end = audio.indexRange.end + 1;
      const outcomes = new Set<string>();

      for (let round = 0; round < 3_000; round++) {
        const head = Buffer.from(audio.bytes.subarray(0, end));
        for (let flips = 1 + (noise.next() % 3); flips > 0; flips--) {
          head[noise.next() % end] = noise.next() & 0xff;
        }
        outcomes.add(outcome(audio, head));
      }

      expect([...outcomes].sort()).toEqual(['index', 'refused']);
    },
  );

  it.each([
    ['WebM', webm],
    ['MP4', mp4],
  ])('refuses %s heads cut anywhere inside the index', (_name, audio) => {
    const outcomes = new Set<string>();

    for (let end = audio.indexRange.start + 1; end <= audio.indexRange.end; end++) {
      outcomes.add(outcome(audio, audio.bytes.subarray(0, end), end));
    }

    expect([...outcomes]).toEqual(['refused']);
  });
});
