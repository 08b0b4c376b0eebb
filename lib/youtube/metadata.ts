// Video metadata: mostly from the player response we already fetched (no extra request), plus
// optional counts and an exact publish date from the YouTube Data API v3 when a key is set.
import { youTubeBadResponse } from './errors';
import { createControlledFetch } from './fetch';
import { isRecord, type PlayerResponse, text } from './innertube/player';
import type { VideoMetadata } from './types';

/** What the Data API adds; every field is optional because YouTube may hide any of them. */
export interface DataApiDetails {
  publishedAt?: string;
  viewCount?: number;
  likeCount?: number;
  commentCount?: number;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
// Thumbnails are shown to clients as links, so only YouTube's image hosts are passed on.
const THUMBNAIL_HOST = /(^|\.)ytimg\.com$/;

/** Metadata from a player response; fields YouTube left out become null or empty. */
export function metadataFromPlayer(player: PlayerResponse, videoId: string): VideoMetadata {
  const details = player.videoDetails ?? {};
  const microformat = player.microformat?.playerMicroformatRenderer ?? {};
  const published = stringField(microformat.publishDate) ?? stringField(microformat.uploadDate);
  return {
    video_id: videoId,
    title: stringField(details.title) ?? text(microformat.title) ?? '',
    channel_title: stringField(details.author) ?? stringField(microformat.ownerChannelName) ?? '',
    channel_id: stringField(details.channelId) ?? stringField(microformat.externalChannelId) ?? '',
    duration_seconds: count(details.lengthSeconds),
    view_count: count(details.viewCount),
    description: typeof details.shortDescription === 'string' ? details.shortDescription : '',
    thumbnail_url:
      largestThumbnail(details.thumbnail) ?? `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`,
    published_at: published !== undefined && ISO_DATE.test(published) ? published : null,
    like_count: null,
    comment_count: null,
  };
}

/** Overlays what the Data API knows (fresher counts, exact publish time) on player metadata. */
export function withDataApiDetails(
  metadata: VideoMetadata,
  details: DataApiDetails | undefined,
): VideoMetadata {
  if (!details) return metadata;
  return {
    ...metadata,
    view_count: details.viewCount ?? metadata.view_count,
    like_count: details.likeCount ?? null,
    comment_count: details.commentCount ?? null,
    published_at: details.publishedAt ?? metadata.published_at,
  };
}

/**
 * Asks the YouTube Data API v3 for a video's statistics and publish time, sending the key in
 * a header so it never appears in a URL (or a log of one).
 * @throws HttpError (502/503/504) when the API fails or answers something unusable.
 */
export async function fetchDataApiDetails(
  fetch: typeof globalThis.fetch,
  videoId: string,
  apiKey: string,
): Promise<DataApiDetails | undefined> {
  const response = await fetch(
    `https://www.googleapis.com/youtube/v3/videos?part=snippet,statistics&id=${videoId}`,
    { headers: { 'X-Goog-Api-Key': apiKey, Accept: 'application/json' } },
  );
  if (!response.ok) throw youTubeBadResponse(`Data API answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw youTubeBadResponse('Data API answered something other than JSON', error);
  }
  const item = isRecord(body) && Array.isArray(body.items) ? body.items[0] : undefined;
  if (!isRecord(item)) return undefined;
  const snippet = isRecord(item.snippet) ? item.snippet : {};
  const statistics = isRecord(item.statistics) ? item.statistics : {};
  const publishedAt = stringField(snippet.publishedAt);
  return {
    publishedAt: publishedAt !== undefined && ISO_DATE.test(publishedAt) ? publishedAt : undefined,
    viewCount: count(statistics.viewCount) ?? undefined,
    likeCount: count(statistics.likeCount) ?? undefined,
    commentCount: count(statistics.commentCount) ?? undefined,
  };
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A non-negative integer from YouTube's stringified numbers ("316", "1856109"). */
function count(value: unknown): number | null {
  const parsed = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof parsed === 'number' && Number.isSafeInteger(parsed) && parsed >= 0 ? parsed : null;
}

function largestThumbnail(value: unknown): string | undefined {
  const thumbnails = isRecord(value) && Array.isArray(value.thumbnails) ? value.thumbnails : [];
  let best: { url: string; width: number } | undefined;
  for (const thumbnail of thumbnails) {
    if (!isRecord(thumbnail) || typeof thumbnail.url !== 'string') continue;
    let url: URL;
    try {
      url = new URL(thumbnail.url);
    } catch {
      continue;
    }
    if (url.protocol !== 'https:' || !THUMBNAIL_HOST.test(url.hostname)) continue;
    const width = typeof thumbnail.width === 'number' ? thumbnail.width : 0;
    if (!best || width > best.width) best = { url: url.href, width };
  }
  return best?.url;
}

const DATA_API_HOSTS: ReadonlySet<string> = new Set([
  'www.googleapis.com',
  'youtube.googleapis.com',
]);
const DATA_API_MAX_BYTES = 1_048_576;

/**
 * The Data API's details of a video, asked for directly, never through the proxy (the keyed API
 * is not IP-blocked, and proxy traffic costs). It is optional: any failure is reported to
 * onWarning and the details are undefined.
 */
export async function dataApiDetails(
  settings: {
    apiBaseUrl: string;
    timeoutMs: number;
    maxResponseBytes: number;
    onWarning?: ((message: string, error: unknown) => void) | undefined;
  },
  videoId: string,
  apiKey: string,
  signal: AbortSignal,
) {
  const api = createControlledFetch({
    origin: settings.apiBaseUrl,
    hosts: DATA_API_HOSTS,
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: Math.min(settings.maxResponseBytes, DATA_API_MAX_BYTES),
    signal,
  });
  try {
    return await fetchDataApiDetails(api.fetch, videoId, apiKey);
  } catch (error) {
    if (!signal.aborted) settings.onWarning?.('YouTube Data API enrichment failed', error);
    return undefined;
  }
}
