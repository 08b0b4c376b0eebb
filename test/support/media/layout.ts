// Where a file's init segment and index are, found by a plain scan of its top level, as YouTube
// states them in its player answer (inclusive ranges). Written apart from the service's readers
// (lib/youtube/audio/) so that the tests do not check the readers against themselves; it trusts
// the file (ffmpeg's own output) and checks only the layout YouTube serves.

type Ranges = {
  initRange: { start: number; end: number };
  indexRange: { start: number; end: number };
};

/** An EBML variable-length integer at `at`: its value (marker kept for ids) and length. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean): [number, number] {
  const first = bytes[at] ?? 0;
  const length = Math.clz32(first) - 23;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return [value, length];
}

/** The element at `at`: id, where its data starts, its size. */
function element(bytes: Uint8Array, at: number): { id: number; data: number; size: number } {
  const [id, idLength] = vint(bytes, at, true);
  const [size, sizeLength] = vint(bytes, at + idLength, false);
  return { id, data: at + idLength + sizeLength, size };
}

/**
 * A WebM file's init segment (the EBML header and the Segment's children before the Cues) and
 * index (the Cues element).
 * @throws Error when the Cues do not come before the first Cluster.
 */
export function webmRanges(bytes: Uint8Array): Ranges {
  const header = element(bytes, 0);
  const segment = element(bytes, header.data + header.size);
  for (let at = segment.data; at < bytes.length; ) {
    const child = element(bytes, at);
    if (child.id === 0x1f43b675) throw new Error('a Cluster before the Cues');
    if (child.id === 0x1c53bb6b) {
      return {
        initRange: { start: 0, end: at - 1 },
        indexRange: { start: at, end: child.data + child.size - 1 },
      };
    }
    at = child.data + child.size;
  }
  throw new Error('no Cues');
}

/**
 * An MP4 file's init segment (every box before the sidx) and index (the sidx box).
 * @throws Error when the sidx does not come right after the moov.
 */
export function mp4Ranges(bytes: Uint8Array): Ranges {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let previous = '';
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === 'sidx') {
      if (previous !== 'moov') throw new Error(`the sidx follows ${previous || 'nothing'}`);
      return {
        initRange: { start: 0, end: at - 1 },
        indexRange: { start: at, end: at + size - 1 },
      };
    }
    if (size < 8) throw new Error(`a box of ${size} bytes at ${at}`);
    previous = type;
    at += size;
  }
  throw new Error('no sidx');
}
