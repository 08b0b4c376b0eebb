// The WebM elements of the generated files (containers.ts): the EBML header, Info and Tracks of
// one Opus track as YouTube writes them, and a cluster of 20 ms frames (RFC 9559 ids).
import type { ByteWriter, Noise } from './writer';

export const E = {
  header: 0x1a45dfa3,
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  seek: 0x4dbb,
  seekId: 0x53ab,
  seekPosition: 0x53ac,
  info: 0x1549a966,
  tracks: 0x1654ae6b,
  cues: 0x1c53bb6b,
  cluster: 0x1f43b675,
} as const;

/** OpusHead (RFC 7845 5.1): two channels, 312 samples of pre-skip, 48 kHz. */
const OPUS_HEAD = Buffer.from('4f707573486561640102380180bb0000000000', 'hex');
/** An Opus packet's TOC byte: CELT fullband, 20 ms, stereo, one frame (RFC 6716 3.1). */
const OPUS_TOC = 0xfc;
export const OPUS_FRAME_MS = 20;

export function writeEbmlHeader(w: ByteWriter): void {
  w.element(E.header, () => {
    w.ebmlUint(0x4286, 1, 1).ebmlUint(0x42f7, 1, 1).ebmlUint(0x42f2, 4, 1).ebmlUint(0x42f3, 8, 1);
    w.ebmlBytes(0x4282, 'webm').ebmlUint(0x4287, 4, 1).ebmlUint(0x4285, 2, 1);
  });
}

/** Info and Tracks; where Tracks starts. */
export function writeInfoAndTracks(w: ByteWriter, durationMs: number): number {
  w.element(E.info, () => {
    w.ebmlUint(0x2ad7b1, 1_000_000, 3).ebmlBytes(0x4d80, 'tubesum').ebmlBytes(0x5741, 'tubesum');
    w.ebmlFloat(0x4489, durationMs);
  });
  const tracksAt = w.at;
  w.element(E.tracks, () =>
    w.element(0xae, () => {
      w.ebmlUint(0xd7, 1, 1).ebmlUint(0x73c5, 1).ebmlUint(0x9c, 0, 1).ebmlBytes(0x86, 'A_OPUS');
      // As YouTube's: 6.5 ms of codec delay (OpusHead's pre-skip), 80 ms of seek pre-roll.
      w.ebmlUint(0x56aa, 6_500_000, 4).ebmlUint(0x56bb, 80_000_000, 4).ebmlUint(0x83, 2, 1);
      w.element(0xe1, () => w.ebmlUint(0x9f, 2, 1).ebmlFloat(0xb5, 48_000));
      w.ebmlBytes(0x63a2, OPUS_HEAD);
    }),
  );
  return tracksAt;
}

/** A cluster of frames `first` to `end` (its size field 8 bytes wide, as YouTube's). */
export function writeCluster(
  w: ByteWriter,
  noise: Noise,
  first: number,
  end: number,
  mean: number,
): void {
  w.element(
    E.cluster,
    () => {
      w.ebmlUint(0xe7, first * OPUS_FRAME_MS, 4);
      for (let frame = first; frame < end; frame++) {
        const payload = noise.around(mean, 0.25);
        // SimpleBlock: track 1, its time from the cluster's, keyframe; the TOC, then the rest.
        w.ebmlId(0xa3)
          .ebmlSize(payload + 4, payload < 16_000 ? 2 : 4)
          .uint(0x81, 1);
        w.uint((frame - first) * OPUS_FRAME_MS, 2)
          .uint(0x80, 1)
          .uint(OPUS_TOC, 1);
        w.bytes(noise.bytes(payload - 1));
      }
    },
    8,
  );
}
