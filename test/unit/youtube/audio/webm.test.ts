// The WebM reader on files as YouTube serves them: real Opus encoded by ffmpeg, the synthetic
// generator's files, each checked against what ffprobe reads of the same bytes; and hostile or
// broken files, which must give a MediaIndexError and nothing else.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MediaIndex,
  MediaIndexError,
  readMediaIndex,
} from '../../../../lib/youtube/audio/segments';
import { type GeneratedAudio, webmAudio } from '../../../support/media/containers';
import {
  type EncodedAudio,
  encodeWebm,
  indexedFormat,
  type Probe,
  probe,
  skipWithoutFfmpeg,
} from '../../../support/media/ffmpeg';
import { packetsBySegment } from '../../../support/media/packets';

const SKIPPED = skipWithoutFfmpeg('WebM reader tests against ffmpeg');
const FRAME_MS = 20;
/** Info's id and the first byte of its 4-byte size (its id alone is in the SeekHead too). */
const INFO = [0x15, 0x49, 0xa9, 0x66, 0x10];

/** Where `pattern` first occurs in `bytes` from `from`. */
function find(bytes: Uint8Array, pattern: number[], from = 0): number {
  const at = Buffer.from(bytes).indexOf(Buffer.from(pattern), from);
  if (at < 0) throw new Error(`pattern ${pattern} not found`);
  return at;
}

/** Each CueClusterPosition's value (8-byte uints, as the generator writes them). */
function cuePositions(audio: GeneratedAudio): number[] {
  const at: number[] = [];
  for (let i = find(audio.bytes, [0xf1, 0x88], audio.indexRange.start); i >= 0; ) {
    at.push(i + 2);
    i = audio.bytes.indexOf(Buffer.from([0xf1, 0x88]), i + 2);
  }
  return at;
}

function expectLinedUpWithPackets(index: MediaIndex, probed: Probe, fileLength: number): void {
  const { firstPtsMs, counts, outside } = packetsBySegment(index, probed.packets);
  expect(outside).toBe(0);
  expect(counts.every((count) => count > 0)).toBe(true);
  for (const [i, segment] of index.segments.entries()) {
    // ffmpeg shifts Opus packets back by the codec delay (6.5 ms): within a frame.
    expect(Math.abs((firstPtsMs[i] ?? Number.NaN) - segment.startMs)).toBeLessThanOrEqual(FRAME_MS);
  }
  expect(index.segments.at(-1)?.bytes.end).toBe(fileLength);
  expect(Math.abs(index.durationMs - probed.durationMs)).toBeLessThanOrEqual(FRAME_MS);
}

describe.skipIf(SKIPPED)('readMediaIndex on WebM/Opus that ffmpeg encoded', () => {
  let dir: string;
  let audio: EncodedAudio;
  let probed: Probe;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tubesum-webm-'));
    audio = await encodeWebm(dir, 75, 2000);
    probed = await probe(audio.path);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds every cluster, from the end of the Cues to the end of the file', () => {
    const index = readMediaIndex(audio.bytes, indexedFormat(audio));

    expect(index.container).toBe('webm');
    expect(index.init).toEqual({ start: 0, end: audio.initRange.end + 1 });
    expect(index.segments.length).toBeGreaterThanOrEqual(75 / 2);
    expect(index.segments[0]?.bytes.start).toBe(audio.indexRange.end + 1);
  });

  it('times each cluster as ffprobe times its packets, and lasts as long as ffprobe says', () => {
    const index = readMediaIndex(audio.bytes, indexedFormat(audio));

    expect(probed.errors).toBe('');
    expectLinedUpWithPackets(index, probed, audio.bytes.length);
  });
});

describe.skipIf(SKIPPED)('readMediaIndex on generated WebM', () => {
  it('reads the generated file as ffprobe does, a segment per cluster', async () => {
    const audio = webmAudio({ durationMs: 61_000, bytesPerSecond: 6_000, clusterMs: 5_000 });
    const dir = await mkdtemp(join(tmpdir(), 'tubesum-webm-'));
    const path = join(dir, 'generated.webm');
    await writeFile(path, audio.bytes);

    const index = readMediaIndex(audio.bytes, indexedFormat(audio));
    const probed = await probe(path);
    await rm(dir, { recursive: true, force: true });

    expect(probed.errors).toBe('');
    expect(index.segments).toHaveLength(Math.ceil(61_000 / 5_000));
    expect(index.durationMs).toBe(audio.durationMs);
    expectLinedUpWithPackets(index, probed, audio.bytes.length);
  });
});

describe('readMediaIndex on broken WebM', () => {
  const audio = webmAudio({ durationMs: 20_000, bytesPerSecond: 4_000, clusterMs: 2_000 });
  const format = indexedFormat(audio);
  const segmentSizeAt = find(audio.bytes, [0x18, 0x53, 0x80, 0x67]) + 4;
  const read = (bytes: Uint8Array, edit: Partial<typeof format> = {}) =>
    readMediaIndex(bytes, { ...format, ...edit });
  const edited = (edit: (bytes: Buffer) => void) => {
    const copy = Buffer.from(audio.bytes);
    edit(copy);
    return copy;
  };

  it('reads the unbroken file: ten clusters of two seconds', () => {
    const index = read(audio.bytes);

    expect(index.segments.map((segment) => segment.startMs)).toEqual(
      Array.from({ length: 10 }, (_, i) => i * 2_000),
    );
    expect(index.durationMs).toBe(20_000);
  });

  it('refuses a head cut short of its Cues', () => {
    expect(() => read(audio.bytes.subarray(0, audio.indexRange.end - 10))).toThrow(MediaIndexError);
  });

  it('refuses Cues whose size runs past the index', () => {
    const bytes = edited((copy) => copy.set([0x10, 0xff, 0xff, 0x00], audio.indexRange.start + 4));

    expect(() => read(bytes)).toThrow(MediaIndexError);
  });

  it('refuses a Segment that declares more than 2^53 bytes', () => {
    const bytes = edited((copy) =>
      copy.set([0x01, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe], segmentSizeAt),
    );

    expect(() => read(bytes)).toThrow(/2\^53/);
  });

  it('refuses an Info element that runs past the init segment', () => {
    const bytes = edited((copy) => copy.set([0x1f, 0xff, 0xff, 0xfe], find(copy, INFO) + 4));

    expect(() => read(bytes)).toThrow(MediaIndexError);
  });

  it('refuses a TimecodeScale of 0', () => {
    const bytes = edited((copy) => {
      const at = find(copy, [0x2a, 0xd7, 0xb1, 0x83]) + 4;
      copy.fill(0, at, at + 3);
    });

    expect(() => read(bytes)).toThrow(/TimecodeScale/);
  });

  it('refuses cues whose clusters go backwards', () => {
    const [, second, third] = cuePositions(audio);
    const bytes = edited((copy) => {
      const value = copy.subarray(second, (second ?? 0) + 8).toString('hex');
      copy.set(copy.subarray(third, (third ?? 0) + 8), second);
      copy.set(Buffer.from(value, 'hex'), third);
    });

    expect(() => read(bytes)).toThrow(MediaIndexError);
  });

  it('counts a cluster cued twice once, spanning until the next cluster cued', () => {
    const [, second, third] = cuePositions(audio);
    const bytes = edited((copy) => copy.set(copy.subarray(second, (second ?? 0) + 8), third));

    const index = read(bytes);

    expect(index.segments).toHaveLength(9);
    expect(index.segments[1]).toMatchObject({ startMs: 2_000, endMs: 6_000 });
  });

  it('reads a Segment of unknown size to the end of the file, which then must be known', () => {
    const bytes = edited((copy) =>
      copy.set([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], segmentSizeAt),
    );

    expect(read(bytes).segments.at(-1)?.bytes.end).toBe(audio.bytes.length);
    expect(() => read(bytes, { contentLength: undefined })).toThrow(MediaIndexError);
  });

  it('refuses a Segment larger than the file the player describes', () => {
    expect(() => read(audio.bytes, { contentLength: audio.bytes.length - 1 })).toThrow(
      MediaIndexError,
    );
  });

  it('refuses bytes without an EBML header', () => {
    const bytes = edited((copy) => copy.set([0, 0, 0, 0]));

    expect(() => read(bytes)).toThrow(MediaIndexError);
  });
});
