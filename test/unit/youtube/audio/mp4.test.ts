// The MP4 reader on files as YouTube serves them: real AAC encoded by ffmpeg (a version 1 sidx),
// the synthetic generator's files (version 0), each checked against what ffprobe reads of the
// same bytes; and hostile or broken sidx boxes, which must give a MediaIndexError only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MediaIndex,
  MediaIndexError,
  readMediaIndex,
} from '../../../../lib/youtube/audio/segments';
import { mp4Audio } from '../../../support/media/containers';
import {
  type EncodedAudio,
  encodeMp4,
  indexedFormat,
  type Probe,
  probe,
  skipWithoutFfmpeg,
} from '../../../support/media/ffmpeg';
import { packetsBySegment } from '../../../support/media/packets';

const SKIPPED = skipWithoutFfmpeg('MP4 reader tests against ffmpeg');
/** An AAC frame at 44.1 kHz. */
const FRAME_MS = 1024 / 44.1;

function expectLinedUpWithPackets(index: MediaIndex, probed: Probe, fileLength: number): void {
  const { firstPtsMs, counts, outside } = packetsBySegment(index, probed.packets);
  expect(outside).toBe(0);
  expect(counts.every((count) => count > 0)).toBe(true);
  for (const [i, segment] of index.segments.entries()) {
    expect(Math.abs((firstPtsMs[i] ?? Number.NaN) - segment.startMs)).toBeLessThan(1);
  }
  expect(index.segments.at(-1)?.bytes.end).toBe(fileLength);
  expect(Math.abs(index.durationMs - probed.durationMs)).toBeLessThanOrEqual(FRAME_MS);
}

describe.skipIf(SKIPPED)('readMediaIndex on fragmented MP4/AAC that ffmpeg encoded', () => {
  let dir: string;
  let audio: EncodedAudio;
  let probed: Probe;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tubesum-mp4-'));
    audio = await encodeMp4(dir, 75, 2000);
    probed = await probe(audio.path);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds every fragment, from the end of the sidx to the end of the file', () => {
    const index = readMediaIndex(audio.bytes, indexedFormat(audio));

    expect(index.container).toBe('mp4');
    expect(index.init).toEqual({ start: 0, end: audio.initRange.end + 1 });
    expect(index.segments.length).toBeGreaterThanOrEqual(75 / 2.1);
    expect(index.segments[0]?.bytes.start).toBe(audio.indexRange.end + 1);
  });

  it('times each fragment as ffprobe times its packets, and lasts as long as ffprobe says', () => {
    const index = readMediaIndex(audio.bytes, indexedFormat(audio));

    expect(probed.errors).toBe('');
    expectLinedUpWithPackets(index, probed, audio.bytes.length);
  });
});

describe.skipIf(SKIPPED)('readMediaIndex on generated MP4', () => {
  it('reads the generated file as ffprobe does, a segment per fragment', async () => {
    const audio = mp4Audio({ durationMs: 61_000, bytesPerSecond: 16_000, fragmentMs: 10_000 });
    const dir = await mkdtemp(join(tmpdir(), 'tubesum-mp4-'));
    const path = join(dir, 'generated.mp4');
    await writeFile(path, audio.bytes);

    const index = readMediaIndex(audio.bytes, indexedFormat(audio));
    const probed = await probe(path);
    await rm(dir, { recursive: true, force: true });

    expect(probed.errors).toBe('');
    // 431 frames of 1024 samples at 44.1 kHz a fragment: 10 s rounded to frames.
    expect(index.segments).toHaveLength(Math.ceil(audio.durationMs / (431 * FRAME_MS)));
    expect(index.durationMs).toBeCloseTo(audio.durationMs, 6);
    expectLinedUpWithPackets(index, probed, audio.bytes.length);
  });
});

describe('readMediaIndex on broken MP4', () => {
  const audio = mp4Audio({ durationMs: 30_000, bytesPerSecond: 8_000, fragmentMs: 5_000 });
  const format = indexedFormat(audio);
  // The version 0 sidx's fields, from its start: timescale, count, then 12-byte references.
  const sidx = audio.indexRange.start;
  const timescaleAt = sidx + 16;
  const countAt = sidx + 30;
  const firstReferenceAt = sidx + 32;
  const read = (bytes: Uint8Array, edit: Partial<typeof format> = {}) =>
    readMediaIndex(bytes, { ...format, ...edit });
  const edited = (edit: (bytes: Buffer) => void) => {
    const copy = Buffer.from(audio.bytes);
    edit(copy);
    return copy;
  };

  it('reads the unbroken file: a fragment every 215 AAC frames (5 s, rounded to frames)', () => {
    const index = read(audio.bytes);

    const fragmentMs = 215 * FRAME_MS;
    expect(index.segments.map((segment) => segment.startMs)).toEqual(
      Array.from({ length: Math.ceil(audio.durationMs / fragmentMs) }, (_, i) => i * fragmentMs),
    );
    expect(index.segments.at(-1)?.bytes.end).toBe(audio.bytes.length);
  });

  it('refuses a sidx that references another sidx (reference_type 1)', () => {
    const bytes = edited((copy) => {
      copy[firstReferenceAt] = (copy[firstReferenceAt] ?? 0) | 0x80;
    });

    expect(() => read(bytes)).toThrow(/another sidx/);
  });

  it('refuses a timescale of 0', () => {
    const bytes = edited((copy) => copy.writeUInt32BE(0, timescaleAt));

    expect(() => read(bytes)).toThrow(/timescale/);
  });

  it('refuses a sidx that counts more references than it holds', () => {
    const bytes = edited((copy) => copy.writeUInt16BE(0xffff, countAt));

    expect(() => read(bytes)).toThrow(MediaIndexError);
  });

  it('refuses an empty fragment', () => {
    const bytes = edited((copy) => copy.writeUInt32BE(0, firstReferenceAt + 12));

    expect(() => read(bytes)).toThrow(MediaIndexError);
  });

  it('refuses fragments that run past the end of the file', () => {
    expect(() => read(audio.bytes, { contentLength: audio.bytes.length - 1 })).toThrow(
      MediaIndexError,
    );
  });

  it('refuses a sidx box larger than the index range', () => {
    const bytes = edited((copy) => copy.writeUInt32BE(0x7fff_ffff, sidx));

    expect(() => read(bytes)).toThrow(MediaIndexError);
  });

  it('refuses a 64-bit box size past 2^53', () => {
    const bytes = edited((copy) => {
      copy.writeUInt32BE(1, sidx);
      copy.writeUInt32BE(0xffff_ffff, sidx + 8);
    });

    expect(() => read(bytes)).toThrow(/2\^53/);
  });

  it('refuses a head cut short of its sidx', () => {
    expect(() => read(audio.bytes.subarray(0, audio.indexRange.end))).toThrow(MediaIndexError);
  });

  it('refuses bytes that do not start with an ftyp box', () => {
    const bytes = edited((copy) => copy.write('free', 4, 'latin1'));

    expect(() => read(bytes)).toThrow(/ftyp/);
  });
});
