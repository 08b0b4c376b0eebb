// The index of a DASH audio format as YouTube serves it: the player answer names two byte ranges
// of each adaptive format, `initRange` (the init segment: WebM's EBML header, Info and Tracks;
// MP4's ftyp and moov) and `indexRange` (WebM's Cues, MP4's sidx box). Read from the first bytes
// of the file, they give every media segment (a WebM cluster, an MP4 fragment) with its byte
// range and its time: enough to cut the audio into files of whole segments without decoding it.
import { readMp4Index } from './mp4';
import { readWebmIndex } from './webm';

/** Bytes `start` (inclusive) to `end` (exclusive) of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/** One media segment: a WebM cluster or an MP4 fragment (moof + mdat). */
export interface MediaSegment {
  bytes: ByteRange;
  /** Its time in the audio, in ms from the start. */
  startMs: number;
  endMs: number;
}

export interface MediaIndex {
  container: 'webm' | 'mp4';
  /** The init segment (from byte 0): what every part starts with. */
  init: ByteRange;
  /** The media segments in order, contiguous in bytes and in time. */
  segments: MediaSegment[];
  /** The audio's real length: the end of its last segment (ms). */
  durationMs: number;
}

/** What the player answer says of a format, enough to read its index. */
export interface IndexedFormat {
  mimeType: string;
  initRange: ByteRange;
  indexRange: ByteRange;
  /** The file's size (`contentLength`), when the player says it. */
  contentLength?: number;
}

/** The format's index cannot be read: a broken file, or a container this service cannot cut. */
export class MediaIndexError extends Error {
  override name = 'MediaIndexError';
}

/**
 * The index of a format from its first bytes: `head` holds bytes 0 to `indexRange.end` at
 * least.
 * @throws MediaIndexError when the bytes are not what the format says, or hold no segment.
 */
export function readMediaIndex(head: Uint8Array, format: IndexedFormat): MediaIndex {
  const { initRange, indexRange } = format;
  if (
    initRange.start !== 0 ||
    initRange.end > indexRange.start ||
    indexRange.end <= indexRange.start
  ) {
    throw new MediaIndexError('the init and index ranges overlap or are out of order');
  }
  if (head.length < indexRange.end) {
    throw new MediaIndexError(`${head.length} bytes read, the index ends at ${indexRange.end}`);
  }
  const container = format.mimeType.split(';')[0]?.trim().toLowerCase();
  if (container === 'audio/webm') return checked(readWebmIndex(head, format));
  if (container === 'audio/mp4') return checked(readMp4Index(head, format));
  throw new MediaIndexError(`cannot cut ${format.mimeType} into parts`);
}

/** The index as the readers made it, if its segments are non-empty, in order and contiguous. */
function checked(index: MediaIndex): MediaIndex {
  const { segments } = index;
  if (segments.length === 0) throw new MediaIndexError('the index lists no segment');
  let bytes = segments[0]?.bytes.start ?? 0;
  let ms = segments[0]?.startMs ?? 0;
  for (const [i, segment] of segments.entries()) {
    const { start, end } = segment.bytes;
    if (start !== bytes || end <= start || !Number.isSafeInteger(end)) {
      throw new MediaIndexError(`segment ${i} is empty or not where the one before it ends`);
    }
    // NaN and Infinity fail these comparisons too.
    if (!(segment.startMs === ms && segment.endMs > ms && Number.isFinite(segment.endMs))) {
      throw new MediaIndexError(`segment ${i}'s time is empty, out of order or not finite`);
    }
    bytes = end;
    ms = segment.endMs;
  }
  if (!(Number.isFinite(segments[0]?.startMs) && (segments[0]?.startMs ?? -1) >= 0)) {
    throw new MediaIndexError('the first segment starts before the audio');
  }
  return index;
}

/**
 * The run of segments a part's media holds, from the one that starts at `startMs` (the time the
 * media's first segment says) for `byteLength` bytes.
 * @throws MediaIndexError when no run of whole segments of the index matches.
 */
export function segmentRun(
  index: MediaIndex,
  startMs: number,
  byteLength: number,
): { startMs: number; endMs: number } {
  let from: MediaSegment | undefined;
  for (const segment of index.segments) {
    // The nearest start, within half a segment: the media's own time, as the index rounds it.
    const off = Math.abs(segment.startMs - startMs);
    if (off < (segment.endMs - segment.startMs) / 2 && !(from && nearer(from, startMs, off))) {
      from = segment;
    }
  }
  const start = from?.bytes.start ?? 0;
  const to = index.segments.find((segment) => segment.bytes.end - start === byteLength);
  if (!from || !to || byteLength <= 0) {
    throw new MediaIndexError(
      `no run of whole segments from ${startMs} ms holds ${byteLength} bytes`,
    );
  }
  return { startMs: from.startMs, endMs: to.endMs };
}

const nearer = (segment: MediaSegment, ms: number, off: number) =>
  Math.abs(segment.startMs - ms) <= off;
