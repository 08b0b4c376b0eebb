// downloadMedia against a media server on loopback that misbehaves as a real one might: audio
// larger than the player said, a length it never tells (`Content-Range: bytes 0-9/*`). The
// download never asks for more than 10 MB at once and stops as soon as the audio is known to
// pass the caller's limit, without fetching the rest.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AudioTooLargeError,
  downloadMedia,
  MEDIA_RANGE_BYTES,
} from '../../../lib/youtube/audio/media';

const MB = 1_048_576;
/** The audio's real size: larger than any limit below. */
const SIZE = 25 * MB;
/** Bytes that differ along the audio (251 is prime: no range starts on the same pattern). */
const audio = Buffer.allocUnsafe(SIZE);
for (let at = 0; at < SIZE; at++) audio[at] = at % 251;

let server: Server;
let origin: string;
/** Whether answers give the total length (`/25 MB`) or hide it (`/*`). */
let tellsTotal = true;
const ranges: [number, number][] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const [, first = '0', last = ''] =
      /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '') ?? [];
    const from = Number(first);
    const to = Math.min(last ? Number(last) : SIZE - 1, SIZE - 1);
    ranges.push([from, last ? Number(last) : Number.POSITIVE_INFINITY]);
    response.writeHead(206, {
      'Content-Type': 'audio/webm',
      'Content-Range': `bytes ${from}-${to}/${tellsTotal ? SIZE : '*'}`,
    });
    response.end(audio.subarray(from, to + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  ranges.length = 0;
});

const download = (maxBytes: number) =>
  downloadMedia(
    `${origin}/videoplayback?itag=251`,
    { userAgent: 'test', maxBytes },
    { testOrigin: origin },
  );

describe('downloadMedia', () => {
  it('stops after the first range when the answer says the audio passes the limit', async () => {
    tellsTotal = true;

    const error = await download(15 * MB).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AudioTooLargeError);
    expect((error as AudioTooLargeError).bytes).toBe(SIZE);
    expect(ranges).toEqual([[0, MEDIA_RANGE_BYTES - 1]]);
  });

  it('stops one byte past the limit when the server never tells the length, 10 MB at a time', async () => {
    tellsTotal = false;

    const error = await download(15 * MB).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AudioTooLargeError);
    expect(ranges).toEqual([
      [0, MEDIA_RANGE_BYTES - 1],
      [MEDIA_RANGE_BYTES, 15 * MB],
    ]);
  });

  it('reads audio of unknown length to its end, in ranges of at most 10 MB', async () => {
    tellsTotal = false;

    const bytes = await download(30 * MB);

    expect(bytes.byteLength).toBe(SIZE);
    expect(Buffer.from(bytes).equals(audio)).toBe(true);
    expect(ranges).toEqual([
      [0, MEDIA_RANGE_BYTES - 1],
      [MEDIA_RANGE_BYTES, 2 * MEDIA_RANGE_BYTES - 1],
      [2 * MEDIA_RANGE_BYTES, 3 * MEDIA_RANGE_BYTES - 1],
    ]);
  });

  it('puts every range where it belongs when the length is told up front', async () => {
    tellsTotal = true;

    const bytes = await download(30 * MB);

    expect(bytes.byteLength).toBe(SIZE);
    expect(Buffer.from(bytes).equals(audio)).toBe(true);
    expect(ranges).toHaveLength(3);
  });
});
