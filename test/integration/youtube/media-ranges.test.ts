// The media download's ranges against a media server on loopback that answers as googlevideo does
// (206 with Content-Range), or as a hostile one might: a byte range of the file (a part of the
// audio) is asked in ranges of at most 10 MB, and a server that answers each with far less than
// asked is given up after twice the requests the bytes need, not followed 200,000 times.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/errors';
import { downloadMedia, MEDIA_RANGE_BYTES } from '../../../lib/youtube/audio/media';

const SIZE = 25 * 1_048_576 + 123;
const file = Buffer.alloc(SIZE);
for (let i = 0; i < SIZE; i += 4096) file[i] = (i / 4096) % 251;

let server: Server;
let origin: string;
/** The most a range answer holds (a hostile server sends 1 KB whatever is asked). */
let answerBytes = Number.POSITIVE_INFINITY;
/** Declare the file's length (`/SIZE`) or not (`/*`). */
let declareTotal = true;
/** How a hostile server misplaces its answer: another range than asked, or more bytes. */
let misplace: 'none' | 'other-start' | 'more-bytes' = 'none';
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range));
    asked.push(String(request.headers.range));
    if (!range) {
      response.writeHead(200).end(file);
      return;
    }
    const first = misplace === 'other-start' ? 0 : Number(range[1]);
    const extra = misplace === 'more-bytes' ? 4_096 : 0;
    const last = Math.min(Number(range[2]) + extra, SIZE - 1, first + answerBytes - 1);
    response.writeHead(206, {
      'Content-Range': `bytes ${first}-${last}/${declareTotal ? SIZE : '*'}`,
      'Content-Length': String(last - first + 1),
    });
    response.end(file.subarray(first, last + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  asked.length = 0;
  answerBytes = Number.POSITIVE_INFINITY;
  declareTotal = true;
  misplace = 'none';
});

const get = (range?: { start: number; end: number }, maxBytes = 200 * 1_048_576) =>
  downloadMedia(
    `${origin}/videoplayback?itag=249`,
    { userAgent: 'test', maxBytes, ...(range ? { range } : {}) },
    { testOrigin: origin },
  );

describe('downloadMedia', () => {
  it('downloads a byte range of the file in ranges of at most 10 MB', async () => {
    const range = { start: 1_000_000, end: 1_000_000 + 2 * MEDIA_RANGE_BYTES + 500 };

    const bytes = await get(range);

    expect(Buffer.from(bytes).equals(file.subarray(range.start, range.end))).toBe(true);
    expect(asked).toEqual([
      `bytes=1000000-${1_000_000 + MEDIA_RANGE_BYTES - 1}`,
      `bytes=${1_000_000 + MEDIA_RANGE_BYTES}-${1_000_000 + 2 * MEDIA_RANGE_BYTES - 1}`,
      `bytes=${1_000_000 + 2 * MEDIA_RANGE_BYTES}-${range.end - 1}`,
    ]);
  });

  it('downloads the whole file in 10 MB ranges, and its first bytes (init segment and index) in one', async () => {
    const whole = await get();
    const head = await get({ start: 0, end: 806 });

    expect(Buffer.from(whole).equals(file)).toBe(true);
    expect(Buffer.from(head).equals(file.subarray(0, 806))).toBe(true);
    expect(asked).toHaveLength(4);
  });

  it('gives up on a server that answers 1 KB per request after twice the requests needed, with a 502', async () => {
    answerBytes = 1_024;

    const failure = await get({ start: 0, end: 3 * MEDIA_RANGE_BYTES }).catch((error) => error);

    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 502, type: 'youtube-bad-response' });
    // Three ranges' worth of bytes: 2 x 3 + 1 requests, then no more.
    expect(asked).toHaveLength(7);
  });

  it.each([
    ['another range than asked', 'other-start'],
    ['more bytes than asked', 'more-bytes'],
  ] as const)('refuses %s with a 502', async (_what, how) => {
    misplace = how;

    const failure = await get({ start: 5_000, end: 9_000 }).catch((error) => error);

    expect(failure).toMatchObject({ status: 502, type: 'youtube-bad-response' });
    expect(asked).toHaveLength(1);
  });

  it('stops at a short answer when the server does not say the file’s length', async () => {
    declareTotal = false;

    const bytes = await get();

    expect(Buffer.from(bytes).equals(file)).toBe(true);
    expect(asked).toHaveLength(3);
  });
});
