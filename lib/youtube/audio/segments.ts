// The index of a DASH audio format as YouTube serves it: the player answer names two byte ranges
// of each adaptive format, `initRange` (the init segment: WebM's EBML header, Info and Tracks;
// MP4's ftyp and moov) and `indexRange` (WebM's Cues, MP4's sidx box). Read from the first bytes
// of the file, they give every media segment (a WebM cluster, an MP4 fragment) with its byte
// range and its time: enough to cut the audio into files of whole segments without decoding it.
// (webm.ts and mp4.ts read each container.)

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
  void head;
  void format;
  throw new MediaIndexError('not implemented yet');
}
