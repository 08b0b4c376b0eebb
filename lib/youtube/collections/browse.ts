// Lists a playlist or a channel's latest uploads through the same controlled fetch as videos
// (fixed origin, proxy, deadline, size cap): InnerTube browse for the first page (`VL<id>`, or
// the channel's videos tab), its continuation tokens until `limit` entries, resolve_url for
// handles and /c/, /user/ names, and the channel's feed when browse is refused.
import type { Dispatcher } from 'undici';
import type { OperatorCredentials } from '../../aws/operator-credentials';
import type { Config } from '../../config';
import { ValidationError } from '../../errors';
import { requireShipped } from '../../shipped';
import type { YouTubeClientOptions } from '../client';
import { DEFAULT_BLOCKED_RETRY_AFTER_SECONDS, youTubeBadResponse } from '../errors';
import { type ControlledFetch, createControlledFetch } from '../fetch';
import { channelNotFound, channelUnavailable, playlistUnavailable } from './errors';
import { type BrowsePage, channelInfoOf, errorAlertOf, pageOf, playlistInfoOf } from './parse';
import {
  browse,
  channelFeed,
  isRefusal,
  RefusedError,
  resolveChannel,
  VIDEOS_TAB_PARAMS,
} from './requests';
import { FEED_SIZE, parseFeed } from './rss';
import {
  type CollectionEntry,
  type CollectionLister,
  type CollectionListing,
  type CollectionTarget,
  MAX_COLLECTION_LIMIT,
} from './types';

/** The fewest entries a page holds but the last (channels 30, playlists 100): bounds the pages. */
const SMALLEST_PAGE = 20;
const CHANNEL_ID = /^UC[0-9A-Za-z_-]{22}$/;

/** What the options of a YouTube client mean here too (no Data API, no player clients). */
export type CollectionListerOptions = Pick<
  YouTubeClientOptions,
  'baseUrl' | 'proxyUrl' | 'timeoutMs' | 'maxResponseBytes' | 'blockedRetryAfterSeconds'
>;

/**
 * Creates a lister; the proxy agent (if any) is made here and shared by every listing.
 * @throws InvalidArgumentError from undici when `proxyUrl` is not a usable proxy URL.
 */
export function createCollectionLister(
  options: CollectionListerOptions = {},
): CollectionLister & { close(): Promise<void> } {
  const proxy: Dispatcher | undefined = options.proxyUrl
    ? new (requireShipped<typeof import('undici')>('undici').ProxyAgent)({ uri: options.proxyUrl })
    : undefined;

  async function list(
    target: CollectionTarget,
    call: { limit: number; signal?: AbortSignal },
  ): Promise<CollectionListing> {
    const { limit } = call;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_COLLECTION_LIMIT) {
      throw new ValidationError([
        { field: 'limit', message: `Use a whole number from 1 to ${MAX_COLLECTION_LIMIT}.` },
      ]);
    }
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(call.signal?.reason);
    if (call.signal?.aborted) forwardAbort();
    call.signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const http = createControlledFetch({
        origin: options.baseUrl ?? 'https://www.youtube.com',
        dispatcher: proxy,
        timeoutMs: options.timeoutMs ?? 8_000,
        maxResponseBytes: options.maxResponseBytes ?? 8_388_608,
        signal: controller.signal,
        blockedRetryAfterSeconds:
          options.blockedRetryAfterSeconds ?? DEFAULT_BLOCKED_RETRY_AFTER_SECONDS,
      });
      return target.kind === 'playlist'
        ? await listPlaylist(http, target.playlistId, limit)
        : await listChannel(http, await channelIdOf(http, target), limit);
    } finally {
      call.signal?.removeEventListener('abort', forwardAbort);
      controller.abort();
    }
  }

  return {
    list,
    async close() {
      await proxy?.close();
    },
  };
}

/**
 * A lister configured from the environment (YOUTUBE_* variables) and the operator's
 * credentials (the proxy URL); create it once per process.
 * @throws InvalidArgumentError from undici when the proxy URL is unusable.
 */
export function collectionListerFromConfig(
  config: Config,
  credentials: Pick<OperatorCredentials, 'youtubeProxyUrl'> = {},
): CollectionLister & { close(): Promise<void> } {
  return createCollectionLister({
    baseUrl: config.YOUTUBE_BASE_URL,
    proxyUrl: credentials.youtubeProxyUrl ?? config.YOUTUBE_PROXY_URL,
    timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    maxResponseBytes: config.YOUTUBE_MAX_RESPONSE_BYTES,
  });
}

async function listPlaylist(
  http: ControlledFetch,
  id: string,
  limit: number,
): Promise<CollectionListing> {
  const first = await browse(http, { browseId: `VL${id}` }).catch((error: unknown) => {
    throw error instanceof RefusedError
      ? error.status === 404
        ? playlistUnavailable(undefined, error)
        : refused(error)
      : error;
  });
  const alert = errorAlertOf(first);
  if (alert !== undefined) throw playlistUnavailable(alert);
  const page = pageOf(first);
  if (!page.listed) throw youTubeBadResponse('a playlist page without a list of videos');
  const { entries, more } = await follow(http, page, limit);
  const info = playlistInfoOf(first);
  return {
    kind: 'playlist',
    id,
    title: info.title ?? '',
    author: info.author ?? '',
    url: `https://www.youtube.com/playlist?list=${id}`,
    entries,
    via: 'browse',
    more,
  };
}

async function listChannel(
  http: ControlledFetch,
  channelId: string,
  limit: number,
): Promise<CollectionListing> {
  let first: Awaited<ReturnType<typeof browse>>;
  try {
    first = await browse(http, { browseId: channelId, params: VIDEOS_TAB_PARAMS });
  } catch (error) {
    if (isRefusal(error)) return listFeed(http, channelId, limit, error);
    throw error instanceof RefusedError ? channelUnavailable(undefined, error) : error;
  }
  const alert = errorAlertOf(first);
  if (alert !== undefined) throw channelUnavailable(alert);
  const page = pageOf(first);
  if (!page.listed) throw youTubeBadResponse("a channel page without its videos tab's list");
  const { entries, more } = await follow(http, page, limit);
  const info = channelInfoOf(first);
  const id = info.id !== undefined && CHANNEL_ID.test(info.id) ? info.id : channelId;
  return {
    kind: 'channel',
    id,
    title: info.title ?? '',
    author: info.title ?? '',
    url: `https://www.youtube.com/channel/${id}`,
    entries,
    via: 'browse',
    more,
  };
}

/** The channel's feed, when browse was refused; the refusal stands if the feed fails too. */
async function listFeed(
  http: ControlledFetch,
  channelId: string,
  limit: number,
  refusal: unknown,
): Promise<CollectionListing> {
  // A feed that fails too says nothing new (it never answers 404 for a channel that browse
  // knows): the refusal is the answer.
  const xml = await channelFeed(http, channelId).catch(() => {
    throw refusal instanceof RefusedError ? refused(refusal) : refusal;
  });
  const feed = parseFeed(xml);
  return {
    kind: 'channel',
    id: channelId,
    title: feed.title,
    author: feed.author,
    url: `https://www.youtube.com/channel/${channelId}`,
    entries: feed.entries.slice(0, limit),
    via: 'rss',
    // The feed stops at 15 whatever the channel holds: a full feed may hide older uploads.
    more: feed.entries.length > limit || feed.entries.length >= FEED_SIZE,
  };
}

/** A channel's UC… ID: given, or what resolve_url makes of its handle or old name. */
async function channelIdOf(
  http: ControlledFetch,
  target: Extract<CollectionTarget, { kind: 'channel' }>,
): Promise<string> {
  if (target.channelId) return target.channelId;
  const { handle, legacy } = target;
  const name = handle ?? (legacy ? `${legacy.type}/${legacy.name}` : '');
  if (name === '') throw youTubeBadResponse('a channel target without an ID or a name');
  // The name is the only part of the URL that comes from the user: encoded, its `@` kept.
  const path = handle
    ? `@${encodeURIComponent(handle.slice(1))}`
    : `${legacy?.type}/${encodeURIComponent(legacy?.name ?? '')}`;
  const id = await resolveChannel(http, `https://www.youtube.com/${path}`).catch(
    (error: unknown) => {
      if (error instanceof RefusedError && error.status === 404) throw channelNotFound(name);
      throw error instanceof RefusedError ? refused(error) : error;
    },
  );
  if (id === undefined || !CHANNEL_ID.test(id)) throw channelNotFound(name);
  return id;
}

/**
 * The first page's entries and those of the pages after it, until `limit` or the last page.
 * A token seen before, or more pages than `limit` can need, ends the walk: a token that leads
 * back to itself cannot spin.
 */
async function follow(
  http: ControlledFetch,
  first: BrowsePage,
  limit: number,
): Promise<{ entries: CollectionEntry[]; more: boolean }> {
  const entries = [...first.entries];
  let token = first.continuation;
  const seen = new Set<string>();
  const maxPages = Math.ceil(limit / SMALLEST_PAGE) + 2;
  for (let pages = 0; entries.length < limit && token && pages < maxPages; pages++) {
    if (seen.has(token)) break;
    seen.add(token);
    const answer = await browse(http, { continuation: token }).catch((error: unknown) => {
      throw error instanceof RefusedError ? refused(error) : error;
    });
    const page = pageOf(answer);
    if (!page.listed) throw youTubeBadResponse('a continuation page without a list');
    entries.push(...page.entries);
    token = page.continuation;
  }
  return { entries: entries.slice(0, limit), more: entries.length > limit || token !== undefined };
}

function refused(error: RefusedError) {
  return youTubeBadResponse(
    `YouTube refused the ${error.endpoint} request (HTTP ${error.status})`,
    error,
  );
}
