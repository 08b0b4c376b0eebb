// The MP4 boxes of the generated files (containers.ts): ftyp and moov of one AAC-LC track whose
// samples are all in fragments (ISO/IEC 14496-12 and 14496-14), and a fragment (moof + mdat).
import type { ByteWriter, Noise } from './writer';

export const AAC_RATE = 44_100;
export const AAC_FRAME = 1024;
/**
 * A silent AAC-LC stereo frame (a channel pair element, then the end element), as ffmpeg's
 * encoder writes one: decoders stop at its end, so the random bytes after it are never read.
 */
export const AAC_SILENCE = Buffer.from('211004608c1c', 'hex');
/** The 3x3 transformation matrix of mvhd and tkhd: identity, as every file has. */
const MATRIX = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];

/** ftyp and moov: one AAC-LC track, 44.1 kHz stereo, its samples all in fragments. */
export function writeMp4Init(w: ByteWriter, durationMs: number): void {
  w.box('ftyp', () => w.ascii('dash').uint(0, 4).ascii('iso6mp41'));
  w.box('moov', () => {
    w.fullBox('mvhd', 0, 0, () => {
      w.uint(0, 8).uint(1000, 4).uint(0, 4).uint(0x10000, 4).uint(0x100, 2).uint(0, 10);
      for (const value of MATRIX) w.uint(value, 4);
      w.uint(0, 24).uint(2, 4);
    });
    // mehd: the whole length (ms), as a fragmented file may say it.
    w.box('mvex', () => {
      w.fullBox('mehd', 0, 0, () => w.uint(Math.round(durationMs), 4));
      w.fullBox('trex', 0, 0, () => w.uint(1, 4).uint(1, 4).uint(0, 12));
    });
    w.box('trak', () => {
      w.fullBox('tkhd', 0, 3, () => {
        w.uint(0, 8).uint(1, 4).uint(0, 4).uint(0, 4).uint(0, 8).uint(0, 4).uint(0x100, 2);
        w.uint(0, 2);
        for (const value of MATRIX) w.uint(value, 4);
        w.uint(0, 8);
      });
      w.box('mdia', () => {
        // language "und", packed as three 5-bit letters.
        w.fullBox('mdhd', 0, 0, () =>
          w.uint(0, 8).uint(AAC_RATE, 4).uint(0, 4).uint(0x55c4, 2).uint(0, 2),
        );
        w.fullBox('hdlr', 0, 0, () =>
          w.uint(0, 4).ascii('soun').uint(0, 12).ascii('SoundHandler\0'),
        );
        w.box('minf', () => {
          w.fullBox('smhd', 0, 0, () => w.uint(0, 4));
          w.box('dinf', () =>
            w.fullBox('dref', 0, 0, () => w.uint(1, 4).fullBox('url ', 0, 1, () => {})),
          );
          w.box('stbl', () => {
            w.fullBox('stsd', 0, 0, () => w.uint(1, 4).box('mp4a', () => writeMp4a(w)));
            for (const type of ['stts', 'stsc', 'stco']) w.fullBox(type, 0, 0, () => w.uint(0, 4));
            w.fullBox('stsz', 0, 0, () => w.uint(0, 8));
          });
        });
      });
    });
  });
}

/** The AAC sample entry and its esds (ISO/IEC 14496-1 descriptors, one-byte lengths). */
function writeMp4a(w: ByteWriter): void {
  w.uint(0, 6)
    .uint(1, 2)
    .uint(0, 8)
    .uint(2, 2)
    .uint(16, 2)
    .uint(0, 4)
    .uint(AAC_RATE * 65536, 4);
  // AudioSpecificConfig: AAC-LC (2), 44.1 kHz (index 4), two channels.
  const config = [0x12, 0x10];
  w.fullBox('esds', 0, 0, () => {
    w.uint(0x03, 1)
      .uint(23 + config.length, 1)
      .uint(1, 2)
      .uint(0, 1);
    w.uint(0x04, 1)
      .uint(15 + config.length, 1)
      .uint(0x40, 1)
      .uint(0x15, 1)
      .uint(0, 3);
    w.uint(128_000, 4).uint(128_000, 4);
    w.uint(0x05, 1).uint(config.length, 1).bytes(Buffer.from(config));
    w.uint(0x06, 1).uint(1, 1).uint(0x02, 1);
  });
}

/** One fragment: moof (mfhd, traf: tfhd, tfdt, trun with each sample's size) and its mdat. */
export function writeFragment(
  w: ByteWriter,
  sequence: number,
  firstFrame: number,
  sizes: number[],
  noise: Noise,
): void {
  const start = w.at;
  let dataOffsetAt = 0;
  w.box('moof', () => {
    w.fullBox('mfhd', 0, 0, () => w.uint(sequence, 4));
    w.box('traf', () => {
      // default-base-is-moof: the trun's data offset counts from this moof.
      w.fullBox('tfhd', 0, 0x020000, () => w.uint(1, 4));
      w.fullBox('tfdt', 1, 0, () => w.uint(firstFrame * AAC_FRAME, 8));
      // data-offset, sample-duration and sample-size present.
      w.fullBox('trun', 0, 0x000301, () => {
        w.uint(sizes.length, 4);
        dataOffsetAt = w.at;
        w.uint(0, 4);
        for (const size of sizes) w.uint(AAC_FRAME, 4).uint(size, 4);
      });
    });
  });
  w.patch(dataOffsetAt, w.at - start + 8, 4);
  w.box('mdat', () => {
    for (const size of sizes) w.bytes(AAC_SILENCE).bytes(noise.bytes(size - AAC_SILENCE.length));
  });
}
