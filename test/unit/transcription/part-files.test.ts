// The files of the parts, as a speech-to-text server gets them: real audio encoded by ffmpeg as
// YouTube serves it, cut by the plan, each part decoded by ffmpeg on its own. Each must decode
// cleanly to its planned length and hold the whole's sound at its place (loudness per 100 ms of
// a tone that changes every second). Then three-hour files from the generator, probed only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AudioPart, partFile, planParts } from '../../../lib/transcription/parts';
import {
  type MediaIndex,
  MediaIndexError,
  readMediaIndex,
} from '../../../lib/youtube/audio/segments';
import {
  type GeneratedAudio,
  indexedFormat,
  mp4Audio,
  webmAudio,
} from '../../support/media/containers';
import {
  type Decoded,
  decode,
  type EncodedAudio,
  encodeMp4,
  encodeWebm,
  type Probe,
  probe,
  skipWithoutFfmpeg,
} from '../../support/media/ffmpeg';
import { mismatch } from '../../support/media/loudness';

const SKIPPED = skipWithoutFfmpeg('part files decoded by ffmpeg');

/** The file of `part` of `audio`, as the transcriber makes it from the downloaded bytes. */
function fileOf(audio: { bytes: Buffer }, index: MediaIndex, part: AudioPart): Uint8Array {
  const init = audio.bytes.subarray(index.init.start, index.init.end);
  return partFile(index, init, audio.bytes.subarray(part.bytes.start, part.bytes.end));
}

describe.skipIf(SKIPPED).each([
  ['WebM/Opus', encodeWebm],
  ['MP4/AAC', encodeMp4],
])('the parts of %s that ffmpeg encoded', (_name, encode) => {
  let dir: string;
  let parts: AudioPart[];
  let whole: Decoded;
  let decoded: Decoded[];
  let probes: Probe[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tubesum-parts-'));
    const audio: EncodedAudio = await encode(dir, 80, 2_000);
    const index = readMediaIndex(audio.bytes, indexedFormat(audio));
    parts = planParts(index, { maxBytes: Math.round(audio.bytes.length / 3), maxMs: 25_000 });
    const paths = parts.map((part) => join(dir, `part-${part.number}.${index.container}`));
    await Promise.all(
      parts.map((part, i) => writeFile(paths[i] ?? '', fileOf(audio, index, part))),
    );
    const decodes = await Promise.all([audio.path, ...paths].map(decode));
    whole = decodes[0] as Decoded;
    decoded = decodes.slice(1);
    probes = await Promise.all(paths.map((path) => probe(path, false)));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('cuts 80 s into four parts of 25 s at most', () => {
    expect(parts).toHaveLength(4);
    expect(Math.max(...parts.map((part) => part.endMs - part.startMs))).toBeLessThanOrEqual(25_000);
  });

  it('decodes every part without an error to its planned length, within 100 ms', () => {
    for (const [i, part] of parts.entries()) {
      expect(decoded[i]?.errors).toBe('');
      expect(Math.abs((decoded[i]?.durationMs ?? 0) - (part.endMs - part.startMs))).toBeLessThan(
        100,
      );
    }
  });

  it("tells ffprobe each part's own length, not the whole's", () => {
    for (const [i, part] of parts.entries()) {
      expect(probes[i]?.errors).toBe('');
      expect(Math.abs((probes[i]?.durationMs ?? 0) - (part.endMs - part.startMs))).toBeLessThan(
        100,
      );
    }
  });

  it("adds the parts' decoded lengths up to the whole's, within 100 ms", () => {
    const sum = decoded.reduce((total, part) => total + part.durationMs, 0);

    expect(Math.abs(sum - whole.durationMs)).toBeLessThan(100);
  });

  it('holds in each part the sound of the whole at its place, and not a second later', () => {
    for (const [i, part] of parts.entries()) {
      const samples = decoded[i]?.samples ?? new Int16Array();

      expect(mismatch(samples, whole.samples, part.startMs)).toBeLessThan(0.05);
      // The check can tell: the same part a second off sounds different most of the time.
      expect(mismatch(samples, whole.samples, part.startMs + 1_000)).toBeGreaterThan(0.5);
    }
  });
});

/** Each part's file written and probed (format only: its length, from its headers). */
async function probeParts(audio: GeneratedAudio, maxBytes: number, maxMs: number) {
  const dir = await mkdtemp(join(tmpdir(), 'tubesum-parts-'));
  try {
    const index = readMediaIndex(audio.bytes, indexedFormat(audio));
    const parts = planParts(index, { maxBytes, maxMs });
    const probes: Probe[] = [];
    for (const part of parts) {
      const path = join(dir, `part.${index.container}`);
      await writeFile(path, fileOf(audio, index, part));
      probes.push(await probe(path, false));
    }
    return { index, parts, probes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe.skipIf(SKIPPED)('the parts of three-hour files', () => {
  it.each([
    [
      'WebM like itag 249 (50 kbit/s)',
      () => webmAudio({ durationMs: 10_800_000, bytesPerSecond: 6_250 }),
    ],
    [
      'MP4 like itag 139 (48 kbit/s)',
      () => mp4Audio({ durationMs: 10_800_000, bytesPerSecond: 6_000 }),
    ],
  ])('cuts %s into parts of 25 MB that each say their own length', async (_name, generate) => {
    const audio = generate();

    const { parts, probes } = await probeParts(audio, 25_000_000, 3_600_000);

    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.at(-1)?.endMs).toBeCloseTo(audio.durationMs, 6);
    for (const [i, part] of parts.entries()) {
      expect(part.size).toBeLessThanOrEqual(25_000_000);
      expect(probes[i]?.errors).toBe('');
      expect(Math.abs((probes[i]?.durationMs ?? 0) - (part.endMs - part.startMs))).toBeLessThan(
        100,
      );
    }
  });
});

describe('partFile', () => {
  const audio = webmAudio({ durationMs: 20_000, bytesPerSecond: 4_000, clusterMs: 2_000 });
  const index = readMediaIndex(audio.bytes, indexedFormat(audio));
  const mp4 = mp4Audio({ durationMs: 20_000, bytesPerSecond: 4_000, fragmentMs: 2_000 });
  const mp4Index = readMediaIndex(mp4.bytes, indexedFormat(mp4));

  it('refuses an init segment that is not the index’s', () => {
    const part = planParts(index, { maxBytes: 1e9, maxMs: 1e9 })[0] as AudioPart;

    const make = () =>
      partFile(index, audio.bytes.subarray(0, 10), audio.bytes.subarray(part.bytes.start));

    expect(make).toThrow(MediaIndexError);
  });

  it.each([
    ['WebM media cut inside a cluster', audio, index],
    ['MP4 media cut inside a fragment', mp4, mp4Index],
  ])('refuses %s', (_name, file, fileIndex) => {
    const second = fileIndex.segments[1];
    const init = file.bytes.subarray(0, fileIndex.init.end);

    const make = () => partFile(fileIndex, init, file.bytes.subarray(second?.bytes.start, -1));

    expect(make).toThrow(MediaIndexError);
  });

  it('changes no byte of the media and no length: it mends in place', () => {
    const part = planParts(mp4Index, { maxBytes: 1e9, maxMs: 1e9 })[0] as AudioPart;

    const file = fileOf(mp4, mp4Index, part);

    expect(file.length).toBe(mp4Index.init.end + part.bytes.end - part.bytes.start);
  });
});
