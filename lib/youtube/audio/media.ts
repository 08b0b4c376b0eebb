// Downloads a video's audio (an AudioOffer of audio.ts) from YouTube's media servers, in ranges
// of at most 10 MB: googlevideo throttles or cuts off larger single requests, which is why
// yt-dlp asks it for 10 MiB chunks (its `http_chunk_size` for YouTube). Only URLs on
// `https://*.googlevideo.com` (and, for tests, the origin of YOUTUBE_BASE_URL) are requested,
// and no redirect anywhere else is followed: a player answer is data from the network, and its
// URLs must not make this service fetch whatever they name.
import type { Dispatcher } from 'undici';
import { readChunks } from '../body';
import { youTubeBadResponse } from '../errors';
import { createControlledFetch, type UnreadResponse } from '../fetch';
import type { ByteRange } from './segments';

/** The most asked of the media server in one request. */
export const MEDIA_RANGE_BYTES = 10 * 1024 * 1024;
/** The deadline of one range: 10 MB through a slow proxy takes a while. */
const RANGE_TIMEOUT_MS = 60_000;

/** A 403 from the media server: the URL is not for us (its client's failure, not the video's). */
export class MediaRefusedError extends Error {
  override name = 'MediaRefusedError';
  constructor(readonly status: number) {
    super(`the media server answered HTTP ${status}`);
  }
}

/** The audio is larger than the caller takes; nothing more is downloaded. */
export class AudioTooLargeError extends Error {
  override name = 'AudioTooLargeError';
  constructor(readonly bytes: number) {
    super(`the audio is ${bytes} bytes`);
  }
}

/** The URL is not on a media host: it is refused without a request. */
export class ForeignMediaError extends Error {
  override name = 'ForeignMediaError';
  constructor(readonly host: string) {
    super(`audio URL on ${host} refused: not a YouTube media host`);
  }
}

/**
 * Whether `url` may be fetched as media: https on a subdomain of googlevideo.com, on the default
 * port, without credentials; or on `testOrigin` (YOUTUBE_BASE_URL's, when it is not YouTube's).
 */
export function isMediaUrl(url: URL, testOrigin?: string): boolean {
  if (testOrigin !== undefined && url.origin === testOrigin) return true;
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    !url.username &&
    !url.password &&
    url.hostname.endsWith('.googlevideo.com')
  );
}

export interface MediaOptions {
  /** YOUTUBE_BASE_URL's origin when it is not www.youtube.com (tests). */
  testOrigin?: string;
  /** The proxy of YOUTUBE_PROXY_URL, as for every YouTube request. */
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
}

export interface Download {
  userAgent: string;
  /** Bytes it may have at most; larger audio fails with AudioTooLargeError. */
  maxBytes: number;
  /** Only the first `limitBytes` (the canary's 64 KB check); default: all of it. */
  limitBytes?: number;
  /** Only these bytes of the file (a part's segments, the init segment and index); default: all. */
  range?: ByteRange;
  /** Told after each range: bytes so far, and the total once known. */
  onProgress?: (bytes: number, total: number | undefined) => void;
}

/**
 * The bytes at `url` (or the part of them `download.range` names), range by range. A media
 * server that answers in smaller pieces than asked is followed for at most twice the requests
 * the bytes need (one answering 1 KB at a time would otherwise be asked 200,000 times).
 * @throws ForeignMediaError (a URL or a redirect off the media hosts: no request made to it),
 *   MediaRefusedError (403, or any answer that is not the range), AudioTooLargeError, and the
 *   HttpErrors of the controlled fetch: 502 youtube-bad-response (5xx, a broken answer, too many
 *   pieces), 503 youtube-blocked (429) | youtube-unreachable, 504 youtube-timeout.
 */
export async function downloadMedia(
  url: string,
  download: Download,
  options: MediaOptions,
): Promise<Uint8Array> {
  const target = new URL(url);
  let refused: string | undefined;
  const allow = (candidate: URL) => {
    const allowed = isMediaUrl(candidate, options.testOrigin);
    if (!allowed) refused = candidate.host;
    return allowed;
  };
  if (!allow(target)) throw new ForeignMediaError(target.host);
  const { fetchWith } = createControlledFetch({
    origin: target.origin,
    allow,
    timeoutMs: RANGE_TIMEOUT_MS,
    maxResponseBytes: MEDIA_RANGE_BYTES,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const from = download.range?.start ?? 0;
  const wanted = Math.min(
    download.limitBytes ?? Number.POSITIVE_INFINITY,
    download.maxBytes + 1,
    download.range ? download.range.end - from : Number.POSITIVE_INFINITY,
  );
  const audio = new Collected();
  let total: number | undefined;
  let requests = 0;
  /** What is still to come, once the file's length is known. */
  const span = () => Math.min(wanted, (total ?? Number.POSITIVE_INFINITY) - from);
  while (audio.length < span()) {
    const received = audio.length;
    const asked = Math.min(MEDIA_RANGE_BYTES, span() - received);
    // Twice the requests the bytes need, and one more (without a known length: those had so far
    // and the one to come).
    const need = Number.isFinite(span()) ? span() : received + asked;
    const bound = 2 * Math.ceil(need / MEDIA_RANGE_BYTES) + 1;
    if (requests >= bound) {
      throw youTubeBadResponse(
        `the media server sent ${received} of ${span()} bytes in ${requests} answers, each far smaller than asked`,
      );
    }
    requests++;
    const first = from + received;
    const range = await fetchWith(
      target.href,
      {
        headers: {
          Range: `bytes=${first}-${first + asked - 1}`,
          'User-Agent': download.userAgent,
        },
      },
      (response: UnreadResponse) =>
        readRange(response, { first, asked, from, wanted, maxBytes: download.maxBytes }, audio),
    ).catch((error: unknown) => {
      // A redirect off the media hosts is not followed: that URL is refused, as a foreign one.
      throw refused === undefined ? error : new ForeignMediaError(refused);
    });
    if (range.status !== 206 && !range.whole) throw new MediaRefusedError(range.status);
    total = range.whole ? range.bytes : (range.declared ?? total);
    if (total !== undefined && total > download.maxBytes) throw new AudioTooLargeError(total);
    download.onProgress?.(audio.length, total);
    // Without a total, a short range is the end.
    if (range.whole || range.bytes === 0 || (total === undefined && range.bytes < asked)) break;
  }
  if (audio.length > download.maxBytes) throw new AudioTooLargeError(audio.length);
  const bytes = audio.bytes();
  return bytes.length > wanted ? bytes.subarray(0, wanted) : bytes;
}

/** One range asked for: where it starts and how long it is, within what is wanted at all. */
interface RangeAsked {
  first: number;
  asked: number;
  from: number;
  wanted: number;
  maxBytes: number;
}

/**
 * Reads one answer into `audio`: how it came (its status, whether it is the whole file, the
 * length it declares) and how many bytes it gave; a refused or too large one is left unread.
 * @throws HttpError 502 youtube-bad-response for a range other than the one asked for.
 */
async function readRange(
  response: UnreadResponse,
  { first, asked, from, wanted, maxBytes }: RangeAsked,
  audio: Collected,
) {
  // A 403 (or any other refusal) is about the URL, its client's failure. A server that
  // ignores ranges answers 200 with it all (within the range cap): fine for a first request.
  const whole = response.status === 200 && first === 0;
  const contentRange = response.headers.get('content-range');
  const declared = whole ? undefined : totalOf(contentRange);
  if ((response.status !== 206 && !whole) || (declared ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, whole, declared, bytes: 0 };
  }
  // A range must be the one asked for, and no longer: the bytes go where they were asked.
  if (!whole && startOf(contentRange) !== first) {
    await response.body?.cancel().catch(() => undefined);
    throw youTubeBadResponse(`the media server answered ${contentRange} to bytes ${first}-`);
  }
  // Room for all that is wanted once the length is known: each range is written where it
  // goes, and the audio is never copied whole.
  if (declared !== undefined) audio.reserve(Math.min(declared - from, wanted));
  const limit = whole ? MEDIA_RANGE_BYTES : asked;
  const bytes = await readChunks(response, limit, (chunk) => audio.add(chunk));
  return { status: response.status, whole, declared, bytes };
}

/**
 * Bytes appended into one buffer, sized ahead when the length is known (hand-written: a
 * Buffer.concat of the ranges would copy all 30 MB once more, and hold them twice meanwhile).
 */
class Collected {
  private buffer = Buffer.allocUnsafe(0);
  length = 0;

  /** Makes room for `bytes` in all (no copy while nothing is in yet). */
  reserve(bytes: number): void {
    if (bytes <= this.buffer.byteLength) return;
    const larger = Buffer.allocUnsafe(bytes);
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }

  add(chunk: Uint8Array): void {
    // More than was reserved (no length known, or a server that sends more): grow by half.
    if (this.length + chunk.byteLength > this.buffer.byteLength) {
      this.reserve(
        Math.max(this.length + chunk.byteLength, Math.ceil(this.buffer.byteLength * 1.5)),
      );
    }
    this.buffer.set(chunk, this.length);
    this.length += chunk.byteLength;
  }

  /** What was added (a view: no copy). */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

/** Where a `Content-Range: bytes 100-199/1234` answer starts; undefined when it does not say. */
function startOf(header: string | null): number | undefined {
  const start = /^\s*bytes\s+(\d+)-/.exec(header ?? '')?.[1];
  return start === undefined ? undefined : Number(start);
}

/** The complete length of a `Content-Range: bytes 0-99/1234` answer; undefined for `/*`. */
function totalOf(header: string | null): number | undefined {
  const total = /\/(\d+)\s*$/.exec(header ?? '')?.[1];
  return total === undefined ? undefined : Number(total);
}
