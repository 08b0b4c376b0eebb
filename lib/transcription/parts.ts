// Long audio in parts a speech-to-text server takes in one upload each: the media segments of the
// format's index (youtube/audio/segments.ts) grouped, in order, into parts of at most
// TRANSCRIPTION_PART_MB and TRANSCRIPTION_PART_MINUTES; each part's file is the init segment
// followed by its whole segments, a standalone file every decoder reads. No transcoding.
import { mendMp4Part } from '../youtube/audio/mp4';
import {
  type ByteRange,
  type MediaIndex,
  MediaIndexError,
  type MediaSegment,
} from '../youtube/audio/segments';
import { mendWebmPart } from '../youtube/audio/webm';

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

/** Each part's segments, as [first, end) indexes: greedy, each as full as the limits let it. */
function cut(segments: MediaSegment[], room: number, maxMs: number): [number, number][] {
  const parts: [number, number][] = [];
  for (let first = 0; first < segments.length; ) {
    let end = first;
    let bytes = 0;
    let ms = 0;
    // A part always takes its first segment: one longer than maxMs is a part on its own.
    for (let next = segments[end]; next; next = segments[end]) {
      const size = next.bytes.end - next.bytes.start;
      const length = next.endMs - next.startMs;
      if (end > first && (bytes + size > room || ms + length > maxMs)) break;
      bytes += size;
      ms += length;
      end++;
    }
    parts.push([first, end]);
    first = end;
  }
  return parts;
}

/**
 * The parts of the audio, each as many whole segments as fit in `maxBytes` (its file, init
 * segment included) and `maxMs`; every segment in exactly one part, in order. As few parts as
 * greedy filling makes, evened out so that the last is no sliver.
 * @throws PartTooLargeError when a single segment does not fit in `maxBytes`.
 * @throws RangeError when a limit is not a positive number.
 */
export function planParts(
  index: MediaIndex,
  limits: { maxBytes: number; maxMs: number },
): AudioPart[] {
  const { maxBytes, maxMs } = limits;
  if (!(maxBytes > 0 && maxMs > 0)) throw new RangeError('part limits must be positive');
  const { segments } = index;
  const initSize = index.init.end - index.init.start;
  for (const segment of segments) {
    const size = segment.bytes.end - segment.bytes.start;
    if (initSize + size > maxBytes) throw new PartTooLargeError(size);
  }
  // Greedy filling makes the fewest parts, but its last holds what is left: perhaps seconds.
  // The smallest share of both limits that still needs no more parts evens them out (the
  // largest part is as small as it can be), and never exceeds the limits (the share is <= 1).
  const fewest = cut(segments, maxBytes - initSize, maxMs).length;
  let low = 0;
  let high = 1;
  for (let step = 0; step < 32; step++) {
    const share = (low + high) / 2;
    const count = cut(segments, share * maxBytes - initSize, share * maxMs).length;
    if (count === fewest) high = share;
    else low = share;
  }
  const parts = cut(segments, high * maxBytes - initSize, high * maxMs);
  return parts.map(([first, end], i) => {
    const from = segments[first] as MediaSegment;
    const to = segments[end - 1] as MediaSegment;
    return {
      number: i + 1,
      count: parts.length,
      bytes: { start: from.bytes.start, end: to.bytes.end },
      startMs: from.startMs,
      endMs: to.endMs,
      size: initSize + to.bytes.end - from.bytes.start,
    };
  });
}

/**
 * The file of a part: the init segment, then its segments' bytes (as downloaded from
 * `part.bytes`), with what a decoder would misread in a cut file mended, no byte moved (WebM:
 * the Segment's size made unknown and Info's Duration the part's; MP4: times from 0, no mehd).
 * @throws MediaIndexError when `init` is not the index's init segment, or `media` not whole
 * segments of the index.
 */
export function partFile(index: MediaIndex, init: Uint8Array, media: Uint8Array): Uint8Array {
  if (init.length !== index.init.end - index.init.start) {
    throw new MediaIndexError(`an init segment of ${init.length} bytes, not the index's`);
  }
  const file = new Uint8Array(init.length + media.length);
  file.set(init);
  file.set(media, init.length);
  if (index.container === 'webm') mendWebmPart(file, init.length, index);
  else mendMp4Part(file, init.length);
  return file;
}
