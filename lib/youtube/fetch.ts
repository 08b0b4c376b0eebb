// The only way this service talks to YouTube. Whatever URL a caller asks for, the request goes
// to one fixed origin, with a deadline, a size cap and no redirect off that origin; the caller
// only chooses the path and query.
import type { Dispatcher, fetch as UndiciFetch } from 'undici';
import { HttpError } from '../errors';
import { parseRetryAfter } from '../net/retry-after';
import { requireShipped } from '../shipped';
import { buffered } from './body';
import {
  DEFAULT_BLOCKED_RETRY_AFTER_SECONDS,
  youTubeBadResponse,
  youTubeBlocked,
  youTubeTimeout,
  youTubeUnreachable,
} from './errors';

/** Hosts whose URLs are rewritten onto the configured YouTube origin. */
export const YOUTUBE_HOSTS: ReadonlySet<string> = new Set([
  'www.youtube.com',
  'youtube.com',
  'm.youtube.com',
]);

// Where YouTube sends EU visitors without a consent cookie: a refusal, not a broken answer.
const CONSENT_HOSTS = new Set(['consent.youtube.com', 'consent.google.com']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface ControlledFetchOptions {
  /** Every request goes here (YOUTUBE_BASE_URL); only its origin is used. */
  origin: string;
  /** Hosts whose URLs are rewritten onto `origin`; a URL on any other host is refused. */
  hosts?: ReadonlySet<string>;
  /**
   * Instead of one origin: the URLs that may be requested, as they are (the media hosts of
   * media.ts); any other URL, a redirect's too, is refused without a request.
   */
  allow?: (target: URL) => boolean;
  /** Deadline of one request (each redirect hop gets its own). */
  timeoutMs: number;
  /** Largest response body accepted, in bytes, after decompression. */
  maxResponseBytes: number;
  /** An undici dispatcher, e.g. a ProxyAgent for YOUTUBE_PROXY_URL. */
  dispatcher?: Dispatcher;
  /** The caller's deadline; aborting it fails the request at once. */
  signal?: AbortSignal;
  /** Same-origin redirects followed before giving up. */
  maxRedirects?: number;
  /** Retry-After for a 429 that does not say. */
  blockedRetryAfterSeconds?: number;
}

/** A request's options, and its own deadline when shorter than the fetch's (caption tracks). */
export type YouTubeRequestInit = RequestInit & { timeoutMs?: number };

/** An answer whose body is still to be read (undici's Response). */
export type UnreadResponse = Awaited<ReturnType<typeof UndiciFetch>>;

export interface ControlledFetch {
  /** Same signature as the global `fetch`; `init.timeoutMs` may shorten the deadline. */
  fetch: typeof globalThis.fetch;
  /**
   * As `fetch`, with the same checks, but the answer's body is `read` by the caller as it
   * arrives instead of buffered here: media.ts writes 30 MB of audio straight into one buffer
   * rather than copying each range three times on the way. `read` keeps to the size cap itself
   * (readChunks); its failures to read count as the connection's (502, 504), as `fetch`'s do.
   */
  fetchWith<T>(
    input: string | URL,
    init: YouTubeRequestInit,
    read: (response: UnreadResponse) => Promise<T>,
  ): Promise<T>;
}

/**
 * Creates a fetch bound to one origin, one deadline signal and one size cap.
 * The returned `fetch` throws HttpErrors: 502 youtube-bad-response (foreign URL or redirect,
 * 5xx, oversize body), 503 youtube-blocked (429, consent redirect), 503 youtube-unreachable,
 * 504 youtube-timeout. Other statuses are returned for the caller to judge.
 */
export function createControlledFetch(options: ControlledFetchOptions): ControlledFetch {
  const setup: FetchSetup = {
    options,
    origin: new URL(options.origin).origin,
    hosts: options.hosts ?? YOUTUBE_HOSTS,
    maxRedirects: options.maxRedirects ?? 3,
    retryAfterDefault: options.blockedRetryAfterSeconds ?? DEFAULT_BLOCKED_RETRY_AFTER_SECONDS,
  };
  const fetchWith = <T>(
    input: string | URL | Request,
    init: YouTubeRequestInit,
    read: (response: UnreadResponse) => Promise<T>,
  ) => fetchThrough(setup, input, init, read);
  const controlled = (input: string | URL | Request, init: YouTubeRequestInit = {}) =>
    fetchWith(input, init, (response) => buffered(response, options.maxResponseBytes));

  return { fetch: controlled as typeof globalThis.fetch, fetchWith };
}

/** A controlled fetch's options, with their defaults filled in. */
interface FetchSetup {
  options: ControlledFetchOptions;
  origin: string;
  hosts: ReadonlySet<string>;
  maxRedirects: number;
  retryAfterDefault: number;
}

/** The URL to ask for `target`: on the origin, or refused without a request. */
function onOrigin({ options, origin, hosts }: FetchSetup, target: URL): URL {
  if (options.allow) {
    if (options.allow(target)) return target;
    throw youTubeBadResponse(`a request to another host (${target.host}) was refused`);
  }
  if (target.origin === origin) return new URL(target.pathname + target.search, origin);
  const plainHttps =
    target.protocol === 'https:' && target.port === '' && !target.username && !target.password;
  if (plainHttps && hosts.has(target.hostname)) {
    return new URL(target.pathname + target.search, origin);
  }
  throw youTubeBadResponse(`a request to another host (${target.host}) was refused`);
}

/** `send`, with anything that is not an HttpError as a 502. */
async function fetchThrough<T>(
  setup: FetchSetup,
  input: string | URL | Request,
  init: YouTubeRequestInit,
  read: (response: UnreadResponse) => Promise<T>,
): Promise<T> {
  try {
    return await send(setup, input, init, read);
  } catch (error) {
    throw error instanceof HttpError ? error : youTubeBadResponse('request failed', error);
  }
}

/** What a failure while connecting or reading means: the caller's abort, the deadline, or else. */
function failure(
  { options }: FetchSetup,
  timeout: AbortSignal,
  error: unknown,
  phase: 'connect' | 'read',
): HttpError {
  if (error instanceof HttpError) return error;
  if (options.signal?.aborted) {
    const reason: unknown = options.signal.reason;
    return reason instanceof HttpError ? reason : youTubeTimeout(reason);
  }
  if (timeout.aborted) return youTubeTimeout(error);
  return phase === 'connect'
    ? youTubeUnreachable(options.dispatcher !== undefined, error)
    : youTubeBadResponse('the connection broke off mid-answer', error);
}

/** Asks for `input`, redirects followed on the origin, the answer handed to `read`. */
async function send<T>(
  setup: FetchSetup,
  input: string | URL | Request,
  init: YouTubeRequestInit,
  read: (response: UnreadResponse) => Promise<T>,
): Promise<T> {
  const { options } = setup;
  // Whole milliseconds: AbortSignal.timeout throws on a fraction, and a client's share of the
  // time left is seldom a whole number; the request then failed unsent.
  const timeoutMs = Math.max(
    1,
    Math.ceil(Math.min(options.timeoutMs, init.timeoutMs ?? Number.POSITIVE_INFINITY)),
  );
  const toOrigin = (target: URL) => onOrigin(setup, target);
  let url = toOrigin(
    new URL(typeof input === 'string' || input instanceof URL ? input : input.url),
  );
  let method = (init.method ?? 'GET').toUpperCase();
  let body = bodyOf(init.body);
  const headers = new Headers(init.headers);

  for (let hop = 0; ; hop++) {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;

    let response: UnreadResponse;
    try {
      // undici's own fetch, so a ProxyAgent from the same package is always understood.
      const { fetch: undiciFetch } = requireShipped<typeof import('undici')>('undici');
      response = await undiciFetch(url, {
        method,
        headers: Object.fromEntries(headers),
        body,
        redirect: 'manual',
        signal,
        dispatcher: options.dispatcher,
      });
    } catch (error) {
      throw failure(setup, timeout, error, 'connect');
    }

    if (REDIRECT_STATUSES.has(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= setup.maxRedirects) throw youTubeBadResponse('too many redirects');
      url = redirectTarget(
        url,
        response.headers.get('location'),
        toOrigin,
        setup.retryAfterDefault,
      );
      if (response.status === 303 || (response.status < 307 && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
      continue;
    }
    await refuseFailed(setup, response);
    try {
      return await read(response);
    } catch (error) {
      throw failure(setup, timeout, error, 'read');
    }
  }
}

/** A 429 (YouTube blocks: 503) or a 5xx (502) goes no further, its body left unread. */
async function refuseFailed(setup: FetchSetup, response: UnreadResponse): Promise<void> {
  if (response.status === 429) {
    await response.body?.cancel().catch(() => undefined);
    const retryAfter =
      parseRetryAfter(response.headers.get('retry-after')) ?? setup.retryAfterDefault;
    throw youTubeBlocked('rate-limited', retryAfter);
  }
  if (response.status >= 500) {
    await response.body?.cancel().catch(() => undefined);
    throw youTubeBadResponse(`HTTP ${response.status}`);
  }
}

function bodyOf(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  // Our calls only send JSON strings; anything else is a bug.
  throw new TypeError('the YouTube fetch only sends string bodies');
}

function redirectTarget(
  from: URL,
  location: string | null,
  onOrigin: (target: URL) => URL,
  retryAfterSeconds: number,
): URL {
  if (!location) throw youTubeBadResponse('a redirect without a Location');
  let target: URL;
  try {
    target = new URL(location, from);
  } catch (error) {
    throw youTubeBadResponse('a redirect to an invalid URL', error);
  }
  if (CONSENT_HOSTS.has(target.hostname))
    throw youTubeBlocked('consent-required', retryAfterSeconds);
  try {
    return onOrigin(target);
  } catch (error) {
    throw youTubeBadResponse(`a redirect to another host (${target.host}), not followed`, error);
  }
}
