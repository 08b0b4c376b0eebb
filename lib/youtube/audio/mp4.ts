// The index of a fragmented MP4 audio file as YouTube serves it: ftyp and moov are the init
// segment, a `sidx` box (ISO/IEC 14496-12, 8.16.3) is the index, then come the fragments (moof +
// mdat), each one of the sidx's references. Hand-written rather than mp4box.js or an ISO BMFF
// library: the Lambda bundles must stay small (under 400 KB), and the three boxes read here are
// a few dozen lines where those libraries parse every box there is.
import {
  type IndexedFormat,
  type MediaIndex,
  MediaIndexError,
  type MediaSegment,
} from './segments';

/** A box: its four-character type, where its header, data and end are. */
interface Box {
  type: string;
  start: number;
  dataStart: number;
  end: number;
}

/** A big-endian unsigned integer of `length` bytes (4 or 8) at `at`, before `end`. */
function uint(bytes: Uint8Array, at: number, length: 4 | 8, end: number): number {
  if (at + length > end) throw new MediaIndexError(`a field at byte ${at} runs past its box`);
  let value = 0;
  for (let i = 0; i < length; i++) value = value * 256 + (bytes[at + i] ?? 0);
  if (!Number.isSafeInteger(value)) throw new MediaIndexError(`a value past 2^53 at byte ${at}`);
  return value;
}

/**
 * The box at `at`, which must end by `limit` (a size of 0, "to the end", ends there).
 * @throws MediaIndexError when its header is malformed or it runs past `limit`.
 */
function readBox(bytes: Uint8Array, at: number, limit: number): Box {
  let size = uint(bytes, at, 4, limit);
  const type = String.fromCharCode(...bytes.subarray(at + 4, Math.min(at + 8, limit)));
  let dataStart = at + 8;
  if (size === 1) {
    size = uint(bytes, at + 8, 8, limit);
    dataStart = at + 16;
  } else if (size === 0) {
    size = limit - at;
  }
  if (type.length < 4 || size < dataStart - at || at + size > limit) {
    throw new MediaIndexError(`a malformed or overlong box at byte ${at}`);
  }
  return { type, start: at, dataStart, end: at + size };
}

/** The boxes that tile `start` to `end`, in order. */
function* boxesIn(bytes: Uint8Array, start: number, end: number): Generator<Box> {
  for (let at = start; at < end; ) {
    const box = readBox(bytes, at, end);
    // A box is at least its 8-byte header: no loop stays in place.
    at = box.end;
    yield box;
  }
}

/**
 * The fragments of a fragmented MP4 file from its sidx box (`head` holds bytes 0 to
 * `format.indexRange.end`).
 * @throws MediaIndexError when the sidx is malformed or not one level of media references, its
 * timescale is 0, or its fragments run past the file.
 */
export function readMp4Index(head: Uint8Array, format: IndexedFormat): MediaIndex {
  if (readBox(head, 0, format.initRange.end).type !== 'ftyp') {
    throw new MediaIndexError('not an MP4 file: no ftyp box');
  }
  const sidx = readBox(head, format.indexRange.start, format.indexRange.end);
  if (sidx.type !== 'sidx') throw new MediaIndexError(`no sidx box at byte ${sidx.start}`);
  const version = head[sidx.dataStart];
  if (version !== 0 && version !== 1) throw new MediaIndexError(`a sidx of version ${version}`);
  // version and flags (4 bytes), reference_ID, then the timescale.
  const timescale = uint(head, sidx.dataStart + 8, 4, sidx.end);
  if (timescale === 0) throw new MediaIndexError('a sidx timescale of 0');
  const wide = version === 0 ? 4 : 8;
  const earliest = uint(head, sidx.dataStart + 12, wide, sidx.end);
  const firstOffset = uint(head, sidx.dataStart + 12 + wide, wide, sidx.end);
  let at = sidx.dataStart + 12 + 2 * wide + 2; // past reserved(16)
  if (at + 2 > sidx.end) throw new MediaIndexError('a truncated sidx box');
  const count = ((head[at] ?? 0) << 8) | (head[at + 1] ?? 0);
  at += 2;
  if (at + count * 12 > sidx.end) {
    throw new MediaIndexError('a sidx with more references than bytes');
  }
  const segments: MediaSegment[] = [];
  // The first fragment starts first_offset bytes after the sidx box (its "anchor point").
  let start = sidx.end + firstOffset;
  let time = earliest;
  for (let i = 0; i < count; i++, at += 12) {
    const reference = uint(head, at, 4, sidx.end);
    // reference_type 1 points at another sidx (a hierarchical index): not how YouTube serves audio.
    if (reference >= 0x8000_0000) throw new MediaIndexError('a sidx that references another sidx');
    const duration = uint(head, at + 4, 4, sidx.end);
    segments.push({
      bytes: { start, end: start + reference },
      startMs: (time * 1000) / timescale,
      endMs: ((time + duration) * 1000) / timescale,
    });
    start += reference;
    time += duration;
  }
  if (format.contentLength !== undefined && start > format.contentLength) {
    throw new MediaIndexError('the fragments run past the end of the file');
  }
  if ((segments[0]?.bytes.start ?? 0) < format.indexRange.end) {
    throw new MediaIndexError('a fragment starts inside the index');
  }
  return {
    container: 'mp4',
    init: { start: 0, end: format.initRange.end },
    segments,
    durationMs: segments.at(-1)?.endMs ?? 0,
  };
}

/**
 * Mends, in place, a part's file (`initLength` bytes of ftyp and moov, then whole fragments) so
 * that it reads as audio of its own length from time 0, without moving a byte.
 * @throws MediaIndexError when the file is not whole boxes, or its media no fragments.
 */
export function mendMp4Part(file: Uint8Array, initLength: number): void {
  // mehd (the whole audio's length, when the moov has one) would make every part as long as the
  // whole: a `free` box of the same size is one every reader skips.
  for (const moov of boxesIn(file, 0, initLength)) {
    if (moov.type !== 'moov') continue;
    for (const mvex of boxesIn(file, moov.dataStart, moov.end)) {
      if (mvex.type !== 'mvex') continue;
      for (const box of boxesIn(file, mvex.dataStart, mvex.end)) {
        if (box.type === 'mehd') file.set([0x66, 0x72, 0x65, 0x65], box.start + 4); // "free"
      }
    }
  }
  // Each fragment's tfdt says where it sits in the whole audio: a part that starts at an hour
  // would end past it, and a server reading its length from the last time (ffprobe does) would
  // misjudge it. Times from 0 make it its own audio; the plan keeps where it was.
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let base: bigint | undefined;
  for (const moof of boxesIn(file, initLength, file.length)) {
    if (moof.start === initLength && moof.type !== 'moof') {
      throw new MediaIndexError('the part does not start with a moof box');
    }
    if (moof.type !== 'moof') continue;
    // An audio-only file has one track: every traf is its.
    for (const traf of boxesIn(file, moof.dataStart, moof.end)) {
      if (traf.type !== 'traf') continue;
      for (const tfdt of boxesIn(file, traf.dataStart, traf.end)) {
        if (tfdt.type !== 'tfdt') continue;
        const wide = file[tfdt.dataStart] === 1;
        const at = tfdt.dataStart + 4;
        if (at + (wide ? 8 : 4) > tfdt.end) throw new MediaIndexError('a truncated tfdt box');
        const time = wide ? view.getBigUint64(at) : BigInt(view.getUint32(at));
        base ??= time;
        if (time < base) throw new MediaIndexError('a fragment earlier than the first');
        if (wide) view.setBigUint64(at, time - base);
        else view.setUint32(at, Number(time - base));
      }
    }
  }
  if (base === undefined) throw new MediaIndexError('the part has no fragment with a tfdt');
}
