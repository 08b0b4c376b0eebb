// The index of a WebM (Matroska) audio file as YouTube serves it: the EBML header and the
// Segment's first children (SeekHead, Info, Tracks) are the init segment, then come the Cues,
// then the Clusters. Each CuePoint names a cluster (its position from the Segment's data start)
// and its time. Hand-written rather than an EBML library: the Lambda bundles must stay small
// (under 400 KB) and the handful of elements needed here is a few dozen lines, where the EBML
// packages on npm parse (and keep) whole files.
import { childrenOf, type EbmlElement, endOf, ID, readElement, readFloat, readUint } from './ebml';
import {
  type IndexedFormat,
  type MediaIndex,
  MediaIndexError,
  type MediaSegment,
  segmentRun,
} from './segments';

/** What the init segment says: where the Segment's data starts, its size, Info's values. */
interface WebmHead {
  segment: EbmlElement;
  /** Nanoseconds per tick of the file's times (Info's TimecodeScale; 1 ms by default). */
  scale: number;
  /** Info's Duration, in ticks, and where it is written (the parts' files rewrite it). */
  duration: number | undefined;
  durationElement: (EbmlElement & { end: number }) | undefined;
}

/** The Segment and its Info, from an init segment that ends at `initEnd`. */
function readHead(bytes: Uint8Array, initEnd: number): WebmHead {
  const header = readElement(bytes, 0, initEnd);
  if (header.id !== ID.ebml) throw new MediaIndexError('not a WebM file: no EBML header');
  const segment = readElement(bytes, endOf(header, initEnd), initEnd);
  if (segment.id !== ID.segment) throw new MediaIndexError('no Segment after the EBML header');
  const head: WebmHead = {
    segment,
    scale: 1_000_000,
    duration: undefined,
    durationElement: undefined,
  };
  // The init segment is whole elements: SeekHead, Info, Tracks (and perhaps Void, Tags).
  for (const child of childrenOf(bytes, segment.dataStart, initEnd)) {
    if (child.id !== ID.info) continue;
    for (const field of childrenOf(bytes, child.dataStart, child.end)) {
      if (field.id === ID.timecodeScale) head.scale = readUint(bytes, field);
      if (field.id === ID.duration) {
        head.duration = readFloat(bytes, field);
        head.durationElement = field;
      }
    }
  }
  if (head.scale === 0) throw new MediaIndexError('a TimecodeScale of 0');
  return head;
}

/** Each CuePoint's time (ticks) and cluster position (from the Segment's data start). */
function readCues(
  bytes: Uint8Array,
  at: number,
  end: number,
): { time: number; position: number }[] {
  const cues = readElement(bytes, at, end);
  if (cues.id !== ID.cues) throw new MediaIndexError(`no Cues at byte ${at}`);
  const points: { time: number; position: number }[] = [];
  for (const point of childrenOf(bytes, cues.dataStart, endOf(cues, end))) {
    if (point.id !== ID.cuePoint) continue;
    let time: number | undefined;
    let position: number | undefined;
    for (const field of childrenOf(bytes, point.dataStart, point.end)) {
      if (field.id === ID.cueTime) time = readUint(bytes, field);
      // An audio-only file has one track: its first CueTrackPositions is the one.
      if (field.id === ID.cueTrackPositions && position === undefined) {
        for (const track of childrenOf(bytes, field.dataStart, field.end)) {
          if (track.id === ID.cueClusterPosition) position = readUint(bytes, track);
        }
      }
    }
    if (time === undefined || position === undefined) {
      throw new MediaIndexError(`a CuePoint without a time or a cluster at byte ${point.start}`);
    }
    points.push({ time, position });
  }
  return points;
}

/**
 * The clusters of a WebM file from its init segment and Cues (`head` holds bytes 0 to
 * `format.indexRange.end`).
 * @throws MediaIndexError when an element is malformed, a cue is out of order, or the file's
 * end or length is unknown.
 */
export function readWebmIndex(head: Uint8Array, format: IndexedFormat): MediaIndex {
  const { segment, scale, duration } = readHead(head, format.initRange.end);
  const origin = segment.dataStart;
  const points = readCues(head, format.indexRange.start, format.indexRange.end);
  const segmentEnd = segment.size === undefined ? undefined : origin + segment.size;
  if (segmentEnd !== undefined && format.contentLength !== undefined) {
    if (segmentEnd > format.contentLength) {
      throw new MediaIndexError('the Segment is larger than the file');
    }
  }
  const end = segmentEnd ?? format.contentLength;
  if (end === undefined) throw new MediaIndexError('neither the Segment nor the file has a size');
  if (duration === undefined) throw new MediaIndexError('no Duration in Info');
  const ms = (ticks: number) => (ticks * scale) / 1_000_000;
  // A cluster cued twice (a cue per track, or a repeated one) is one segment.
  const clusters = points.filter(
    (point, i) => i === 0 || point.position !== points[i - 1]?.position,
  );
  const segments: MediaSegment[] = clusters.map((point, i) => {
    const next = clusters[i + 1];
    return {
      bytes: { start: origin + point.position, end: next ? origin + next.position : end },
      startMs: ms(point.time),
      endMs: ms(next ? next.time : duration),
    };
  });
  const first = segments[0];
  // As YouTube serves them, the clusters follow the Cues: a cluster before them is not one.
  if (first && first.bytes.start < format.indexRange.end) {
    throw new MediaIndexError('a cue points into the init segment or the Cues');
  }
  return {
    container: 'webm',
    init: { start: 0, end: format.initRange.end },
    segments,
    durationMs: ms(duration),
  };
}

/** An EBML size field's bytes meaning "unknown": the length marker, then all ones. */
function writeUnknownSize(file: Uint8Array, element: EbmlElement): void {
  const length = element.dataStart - element.sizeAt;
  file[element.sizeAt] = 0xff >> (length - 1);
  file.fill(0xff, element.sizeAt + 1, element.dataStart);
}

/** The time (ms) of the cluster a part's media starts with. */
function firstClusterMs(file: Uint8Array, at: number, scale: number): number {
  const cluster = readElement(file, at, file.length);
  if (cluster.id !== ID.cluster) {
    throw new MediaIndexError('the part does not start with a Cluster');
  }
  const end = cluster.size === undefined ? file.length : endOf(cluster, file.length);
  for (const child of childrenOf(file, cluster.dataStart, end)) {
    if (child.id === ID.timecode) return (readUint(file, child) * scale) / 1_000_000;
  }
  throw new MediaIndexError('the first Cluster has no Timecode');
}

/**
 * Mends, in place, a part's file (`initLength` bytes of init segment, then whole clusters) so a
 * decoder reads it as it is, without moving a byte.
 * @throws MediaIndexError when the file is not the init segment and whole clusters of `index`.
 */
export function mendWebmPart(file: Uint8Array, initLength: number, index: MediaIndex): void {
  const head = readHead(file, initLength);
  // The Segment's size counts the whole file's clusters: past this part's end, a demuxer waits
  // for more and reports the file truncated (ffmpeg: "File ended prematurely"). Unknown size is
  // what a live stream has: read to the end of the file.
  writeUnknownSize(file, head.segment);
  // Info's Duration is the whole audio's: every part would say it lasts hours, and a server
  // that checks an upload's length from its header (ffprobe does) would refuse or misjudge it.
  const run = segmentRun(
    index,
    firstClusterMs(file, initLength, head.scale),
    file.length - initLength,
  );
  const element = head.durationElement;
  if (element) {
    const ticks = ((run.endMs - run.startMs) * 1_000_000) / head.scale;
    const view = new DataView(
      file.buffer,
      file.byteOffset + element.dataStart,
      element.end - element.dataStart,
    );
    if (view.byteLength === 8) view.setFloat64(0, ticks);
    else if (view.byteLength === 4) view.setFloat32(0, ticks);
  }
}
