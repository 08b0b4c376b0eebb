// The few EBML (RFC 8794) primitives the WebM reader needs: an element's id and size (variable-
// length integers), unsigned integers and floats. Every read is checked against the bytes at
// hand, so a truncated or hostile file gives a MediaIndexError, never a RangeError.
import { MediaIndexError } from './segments';

/** One element: its id (marker bits kept, as the specs write ids), where its data lies. */
export interface EbmlElement {
  id: number;
  /** Where the element starts (its id), where its size field and its data start. */
  start: number;
  sizeAt: number;
  dataStart: number;
  /** Its data's size; undefined for "unknown" (all ones: a live Segment or Cluster). */
  size: number | undefined;
}

export const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  cues: 0x1c53bb6b,
  cuePoint: 0xbb,
  cueTime: 0xb3,
  cueTrackPositions: 0xb7,
  cueClusterPosition: 0xf1,
  cluster: 0x1f43b675,
  timecode: 0xe7,
} as const;

/** The length of a variable-length integer from its first byte (1 to 8), 0 when invalid. */
function vintLength(first: number): number {
  return first === 0 ? 0 : Math.clz32(first) - 23;
}

/**
 * The element at `at`, which must lie (id and size fields) before `limit`.
 * @throws MediaIndexError when its id or size is malformed or runs past `limit`.
 */
export function readElement(bytes: Uint8Array, at: number, limit: number): EbmlElement {
  const idLength = at < limit ? vintLength(bytes[at] ?? 0) : 0;
  // Matroska's ids are at most 4 bytes long (EBMLMaxIDLength).
  if (idLength === 0 || idLength > 4 || at + idLength >= limit) {
    throw new MediaIndexError(`no EBML element at byte ${at}`);
  }
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + (bytes[at + i] ?? 0);
  const sizeAt = at + idLength;
  const first = bytes[sizeAt] ?? 0;
  const sizeLength = vintLength(first);
  if (sizeLength === 0 || sizeAt + sizeLength > limit) {
    throw new MediaIndexError(`a malformed element size at byte ${sizeAt}`);
  }
  let size = first & (0xff >> sizeLength);
  let allOnes = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i++) {
    const byte = bytes[sizeAt + i] ?? 0;
    size = size * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  // Sizes up to 2^56 do not fit a double exactly; no real audio file comes near 2^53 bytes.
  if (!allOnes && !Number.isSafeInteger(size)) {
    throw new MediaIndexError(`an element size past 2^53 at byte ${sizeAt}`);
  }
  return {
    id,
    start: at,
    sizeAt,
    dataStart: sizeAt + sizeLength,
    size: allOnes ? undefined : size,
  };
}

/**
 * The end of an element whose size must be known and whose data must end by `limit`.
 * @throws MediaIndexError when its size is unknown or runs past `limit`.
 */
export function endOf(element: EbmlElement, limit: number): number {
  if (element.size === undefined || element.dataStart + element.size > limit) {
    throw new MediaIndexError(
      `element 0x${element.id.toString(16)} at byte ${element.start} runs past its parent`,
    );
  }
  return element.dataStart + element.size;
}

/**
 * The children of the master element whose data runs from `start` to `end`, in order.
 * @throws MediaIndexError when a child is malformed or runs past `end`.
 */
export function* childrenOf(
  bytes: Uint8Array,
  start: number,
  end: number,
): Generator<EbmlElement & { end: number }> {
  let at = start;
  while (at < end) {
    const child = readElement(bytes, at, end);
    // Each step moves past at least an id and a size byte: no loop stays in place.
    at = endOf(child, end);
    yield { ...child, end: at };
  }
}

/**
 * An unsigned integer element's value.
 * @throws MediaIndexError when it is longer than 8 bytes or past 2^53.
 */
export function readUint(bytes: Uint8Array, element: EbmlElement & { end: number }): number {
  if (element.end - element.dataStart > 8) {
    throw new MediaIndexError(`an integer of more than 8 bytes at byte ${element.start}`);
  }
  let value = 0;
  for (let at = element.dataStart; at < element.end; at++) value = value * 256 + (bytes[at] ?? 0);
  if (!Number.isSafeInteger(value)) {
    throw new MediaIndexError(`an integer past 2^53 at byte ${element.start}`);
  }
  return value;
}

/**
 * A float element's value (4 or 8 bytes; 0 when empty, as EBML says).
 * @throws MediaIndexError for any other length.
 */
export function readFloat(bytes: Uint8Array, element: EbmlElement & { end: number }): number {
  const length = element.end - element.dataStart;
  const view = new DataView(bytes.buffer, bytes.byteOffset + element.dataStart, length);
  if (length === 0) return 0;
  if (length === 4) return view.getFloat32(0);
  if (length === 8) return view.getFloat64(0);
  throw new MediaIndexError(`a float of ${length} bytes at byte ${element.start}`);
}
