// The WebM reader on hostile or broken files (generated, then damaged): each must give a
// MediaIndexError and nothing else, or an index that makes sense of what is left. (Real files
// encoded by ffmpeg, and generated ones, are read in segments.test.ts.)
import { describe, expect, it } from 'vitest';
import { MediaIndexError } from '../../../../lib/youtube/audio/segments';
import { type GeneratedAudio, webmAudio } from '../../../support/media/containers';
import { damageable } from '../../../support/media/damage';

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

describe('readMediaIndex on broken WebM', () => {
  const audio = webmAudio({ durationMs: 20_000, bytesPerSecond: 4_000, clusterMs: 2_000 });
  const segmentSizeAt = find(audio.bytes, [0x18, 0x53, 0x80, 0x67]) + 4;
  const { read, edited } = damageable(audio);

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
