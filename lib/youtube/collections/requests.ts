// The requests a listing makes: InnerTube's browse and navigation/resolve_url as YouTube's web
// client sends them, and the channel's feed. Context and headers are those of the recorded
// requests (NewPipeExtractor's mocks of 2026: WEB 2.20260519.10.00, with the SOCS consent cookie,
// Origin, Referer and the X-YouTube-Client-* headers); `hl: en` so that alerts come in the
// English that errors.ts reads.
import { HttpError } from '../../errors';
import { youTubeBadResponse } from '../errors';
import type { ControlledFetch } from '../fetch';
import { isRecord } from '../innertube/player';

const WEB_CLIENT = { name: 'WEB', id: 1, version: '2.20260519.10.00' } as const;
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36';
/** The videos tab of a channel, as the recorded request and the channel's own tab name it. */
export const VIDEOS_TAB_PARAMS = 'EgZ2aWRlb3PyBgQKAjoA';

const BROWSE_URL = 'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false';
const RESOLVE_URL = 'https://www.youtube.com/youtubei/v1/navigation/resolve_url?prettyPrint=false';

/** YouTube answered an HTTP status other than 200: what the caller makes of it depends on what it asked. */
export class RefusedError extends Error {
  override name = 'RefusedError';
  constructor(
    readonly status: number,
    readonly endpoint: string,
  ) {
    super(`${endpoint}: HTTP ${status}`);
  }
}

export type JsonObject = Record<string, unknown>;

/** What one browse asks for: a page by its browse ID (and tab), or the page after a token. */
export type BrowseAsk = { browseId: string; params?: string } | { continuation: string };

function headers(): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'Accept-Language': 'en',
    'X-YouTube-Client-Name': String(WEB_CLIENT.id),
    'X-YouTube-Client-Version': WEB_CLIENT.version,
    Origin: 'https://www.youtube.com',
    Referer: 'https://www.youtube.com/',
    // Consent already given, as NewPipeExtractor sends it: no EU consent page instead.
    Cookie: 'SOCS=CAE=',
  };
}

function context() {
  return {
    client: {
      hl: 'en',
      gl: 'US',
      clientName: WEB_CLIENT.name,
      clientVersion: WEB_CLIENT.version,
      originalUrl: 'https://www.youtube.com',
      platform: 'DESKTOP',
      utcOffsetMinutes: 0,
    },
    request: { internalExperimentFlags: [], useSsl: true },
    user: { lockedSafetyMode: false },
  };
}

/**
 * One browse answer as JSON.
 * @throws RefusedError for a status other than 200; the controlled fetch's HttpErrors (429,
 * 5xx, timeouts...); 502 youtube-bad-response when the body is not a JSON object.
 */
export async function browse(http: ControlledFetch, ask: BrowseAsk): Promise<JsonObject> {
  return postJson(http, BROWSE_URL, 'browse', { context: context(), ...ask });
}

/**
 * The browse endpoint a channel URL (`https://www.youtube.com/@name`, `/c/name`, `/user/name`)
 * leads to: its `browseEndpoint.browseId`, or undefined when it leads elsewhere.
 * @throws RefusedError (404 for a name nobody has), and what browse throws.
 */
export async function resolveChannel(
  http: ControlledFetch,
  url: string,
): Promise<string | undefined> {
  const answer = await postJson(http, RESOLVE_URL, 'navigation/resolve_url', {
    context: context(),
    url,
  });
  const endpoint = answer.endpoint;
  const browseId =
    isRecord(endpoint) && isRecord(endpoint.browseEndpoint)
      ? endpoint.browseEndpoint.browseId
      : undefined;
  return typeof browseId === 'string' ? browseId : undefined;
}

/**
 * The channel's feed (the latest 15 uploads) as text.
 * @throws RefusedError for a status other than 200, and the controlled fetch's HttpErrors.
 */
export async function channelFeed(http: ControlledFetch, channelId: string): Promise<string> {
  const response = await http.fetch(
    `https://www.youtube.com/feeds/videos.xml?channel_id=${encodeURIComponent(channelId)}`,
    { headers: { 'User-Agent': USER_AGENT, 'Accept-Language': 'en' } },
  );
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new RefusedError(response.status, 'feeds/videos.xml');
  }
  return response.text();
}

async function postJson(
  http: ControlledFetch,
  url: string,
  endpoint: string,
  body: JsonObject,
): Promise<JsonObject> {
  const response = await http.fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(body),
  });
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new RefusedError(response.status, endpoint);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw unreadable(`a ${endpoint} answer that is not JSON`, error);
  }
  if (!isRecord(json)) throw unreadable(`a ${endpoint} answer that is not an object`);
  return json;
}

/** Answers that came but could not be read: a 502 of their own, never a reason to fall back. */
const UNREADABLE = new WeakSet<object>();

function unreadable(detail: string, cause?: unknown) {
  const error = youTubeBadResponse(detail, cause);
  UNREADABLE.add(error);
  return error;
}

/**
 * Whether a failed first request means "browse is refused here" (a status YouTube chose, a
 * rate limit, a block, a 5xx or a redirect away), which a channel's feed may still get past;
 * a timeout or no connection at all would fail the feed too.
 */
export function isRefusal(error: unknown): boolean {
  if (error instanceof RefusedError) return error.status !== 404;
  return (
    error instanceof HttpError &&
    !UNREADABLE.has(error) &&
    (error.type === 'youtube-blocked' || error.type === 'youtube-bad-response')
  );
}
