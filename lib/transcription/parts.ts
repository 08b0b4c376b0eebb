// Long audio in parts a speech-to-text server takes in one upload each: the media segments of the
// format's index (youtube/audio/segments.ts) grouped, in order, into parts of at most
// TRANSCRIPTION_PART_MB and TRANSCRIPTION_PART_MINUTES; each part's file is the init segment
// followed by its whole segments, a standalone file every decoder reads. No transcoding.
import type { ByteRange, MediaIndex } from '../youtube/audio/segments';

/** One part of the audio, as planned from the index. */
export interface AudioPart {
  /** From 1, of `count`. */
  number: number;
  count: number;
  /** Its media segments' bytes in the original file (one contiguous range). */
  bytes: ByteRange;
  /** Where it sits in the audio (ms): what its transcript's times are offset by. */
  startMs: number;
  endMs: number;
  /** The size of its file: the init segment and its segments. */
  size: number;
}

/** One segment alone (with the init segment) is larger than a part may be. */
export class PartTooLargeError extends Error {
  override name = 'PartTooLargeError';
  constructor(readonly bytes: number) {
    super(`a media segment of ${bytes} bytes does not fit in one part`);
  }
}

/**
 * The parts of the audio, each as many whole segments as fit in `maxBytes` (its file, init
 * segment included) and `maxMs`; every segment in exactly one part, in order.
 * @throws PartTooLargeError when a single segment does not fit in `maxBytes`.
 */
export function planParts(
  index: MediaIndex,
  limits: { maxBytes: number; maxMs: number },
): AudioPart[] {
  void index;
  void limits;
  throw new Error('not implemented yet');
}

/**
 * The file of a part: the init segment, then its segments' bytes (as downloaded from
 * `part.bytes`), with what a decoder would misread in a cut file mended (WebM: the Segment's size
 * made unknown).
 */
export function partFile(index: MediaIndex, init: Uint8Array, media: Uint8Array): Uint8Array {
  void index;
  void init;
  void media;
  throw new Error('not implemented yet');
}
