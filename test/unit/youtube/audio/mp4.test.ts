// The MP4 reader on hostile or broken sidx boxes (generated, then damaged): each must give a
// MediaIndexError and nothing else. (Real files encoded by ffmpeg, with a version 1 sidx, and
// generated ones, with a version 0 sidx, are read in segments.test.ts.)
import { describe, expect, it } from 'vitest';
import { MediaIndexError } from '../../../../lib/youtube/audio/segments';
import { mp4Audio } from '../../../support/media/containers';
import { damageable } from '../../../support/media/damage';

/** An AAC frame at 44.1 kHz. */
const FRAME_MS = 1024 / 44.1;

describe('readMediaIndex on broken MP4', () => {
  const audio = mp4Audio({ durationMs: 30_000, bytesPerSecond: 8_000, fragmentMs: 5_000 });
  // The version 0 sidx's fields, from its start: timescale, count, then 12-byte references.
  const sidx = audio.indexRange.start;
  const timescaleAt = sidx + 16;
  const countAt = sidx + 30;
  const firstReferenceAt = sidx + 32;
  const { read, edited } = damageable(audio);

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
