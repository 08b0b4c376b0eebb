// A growing byte buffer with the two ways containers nest: EBML elements (WebM) and ISO BMFF
// boxes (MP4), each written with its size patched in when its body is done. Fast enough to write
// hours of audio in a fraction of a second: every write is a plain store into one Buffer.

export class ByteWriter {
  private buffer: Buffer;
  at = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(capacity, 1024));
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  /** An unsigned big-endian integer of `length` bytes (up to 8, values up to 2^53). */
  uint(value: number, length: number): this {
    this.room(length);
    let rest = value;
    for (let i = length - 1; i >= 0; i--) {
      this.buffer[this.at + i] = rest % 256;
      rest = Math.floor(rest / 256);
    }
    this.at += length;
    return this;
  }

  bytes(bytes: Uint8Array): this {
    this.room(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }

  ascii(text: string): this {
    return this.bytes(Buffer.from(text, 'latin1'));
  }

  float64(value: number): this {
    this.room(8);
    this.buffer.writeDoubleBE(value, this.at);
    this.at += 8;
    return this;
  }

  /** Overwrites `length` bytes at `at` with an unsigned integer (sizes and offsets known late). */
  patch(at: number, value: number, length: number): void {
    const end = this.at;
    this.at = at;
    this.uint(value, length);
    this.at = end;
  }

  /** An EBML id as written (its length marker is part of it). */
  ebmlId(id: number): this {
    return this.uint(id, Math.ceil(Math.log2(id + 1) / 8));
  }

  /** An EBML size of `length` bytes: the length marker, then the value. */
  ebmlSize(value: number, length: number): this {
    this.uint(value, length);
    this.buffer[this.at - length] = (this.buffer[this.at - length] ?? 0) | (0x80 >> (length - 1));
    return this;
  }

  /** A master element whose body `write` writes; its size field is `sizeLength` bytes. */
  element(id: number, write: () => void, sizeLength = 4): this {
    this.ebmlId(id);
    const sizeAt = this.at;
    this.ebmlSize(0, sizeLength);
    const start = this.at;
    write();
    const end = this.at;
    this.at = sizeAt;
    this.ebmlSize(end - start, sizeLength);
    this.at = end;
    return this;
  }

  /** An unsigned integer element, `length` bytes wide (fixed widths can be patched later). */
  ebmlUint(id: number, value: number, length = 8): this {
    return this.ebmlId(id).ebmlSize(length, 1).uint(value, length);
  }

  ebmlFloat(id: number, value: number): this {
    return this.ebmlId(id).ebmlSize(8, 1).float64(value);
  }

  ebmlBytes(id: number, bytes: Uint8Array | string): this {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
    return this.ebmlId(id).ebmlSize(data.length, 4).bytes(data);
  }

  /** An ISO BMFF box (32-bit size) whose body `write` writes. */
  box(type: string, write: () => void): this {
    const start = this.at;
    this.uint(0, 4).ascii(type);
    write();
    this.patch(start, this.at - start, 4);
    return this;
  }

  /** A full box: version and flags, then the body. */
  fullBox(type: string, version: number, flags: number, write: () => void): this {
    return this.box(type, () => {
      this.uint(version, 1).uint(flags, 3);
      write();
    });
  }

  /** What was written (a view of the buffer, not a copy). */
  result(): Buffer {
    return this.buffer.subarray(0, this.at);
  }
}

/** A deterministic pseudo-random source (xorshift32): sizes and payload bytes per seed. */
export class Noise {
  private state: number;
  private readonly pool: Buffer;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
    this.pool = Buffer.allocUnsafe(1 << 16);
    for (let i = 0; i < this.pool.length; i += 4) this.pool.writeUInt32LE(this.next(), i);
  }

  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }

  /** A whole number near `mean`, up to `spread` (a fraction) either side. */
  around(mean: number, spread: number): number {
    return Math.max(1, Math.round(mean * (1 - spread + (2 * spread * this.next()) / 2 ** 32)));
  }

  /** `length` random-looking bytes (a slice of a random pool, at a random place). */
  bytes(length: number): Buffer {
    if (length > this.pool.length) {
      return Buffer.concat([this.pool, this.bytes(length - this.pool.length)]);
    }
    const at = this.next() % (this.pool.length - length + 1);
    return this.pool.subarray(at, at + length);
  }
}
