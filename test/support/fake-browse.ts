// The fake YouTube's playlists and channels (fake-youtube.ts hands it these requests): POST
// /youtubei/v1/browse, POST /youtubei/v1/navigation/resolve_url and GET /feeds/videos.xml,
// answered from the trimmed recordings in test/fixtures/youtube/browse (NewPipeExtractor's
// mocks of YouTube's web client; its README says which is which).
//
// A playlist is served in both shapes YouTube has: asked by `browseId: "VL<id>"`, its first page
// inside twoColumnBrowseResultsRenderer (…itemSectionRenderer.playlistVideoListRenderer, where
// yt-dlp's _extract_entries reads it), built from the recorded header and first page; asked by
// a continuation token, the page recorded for that token (NewPipe asks its first page so).
// Every recorded page is found by the token its request sent, so the token at the end of a page
// leads to the next one. The scenarios, and the evidence for shapes no recording shows, are in
// fake-browse-scenarios.ts.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNELS, NAMES, PLAYLISTS } from './fake-browse-scenarios';

export { FAKE_CHANNELS, FAKE_PLAYLISTS } from './fake-browse-scenarios';

// biome-ignore lint/suspicious/noExplicitAny: recorded InnerTube JSON, edited as the scenarios say
type Loose = any;

const BROWSE_DIR = resolve(fileURLToPath(import.meta.url), '../../fixtures/youtube/browse');

interface Recording {
  source: string;
  request: { method: string; url: string; body?: { continuation?: string } };
  status: number;
  answer: Record<string, unknown> | string;
}

const recordings = new Map<string, Recording>();
function recording(name: string): Recording {
  let found = recordings.get(name);
  if (!found) {
    found = JSON.parse(readFileSync(resolve(BROWSE_DIR, name), 'utf8')) as Recording;
    recordings.set(name, found);
  }
  return found;
}
const answerOf = (name: string) => structuredClone(recording(name).answer) as Record<string, Loose>;

/** Every recorded page by the continuation token its request sent. */
const PAGE_FILES = [
  'playlist-top150-page1.json',
  'playlist-top150-page2.json',
  'playlist-course-page1.json',
  'playlist-members-only-page1.json',
  'channel-videos-page2.json',
];
let pagesByToken: Map<string, string> | undefined;
function pageByToken(token: string): string | undefined {
  pagesByToken ??= new Map(
    PAGE_FILES.map((name) => [recording(name).request.body?.continuation ?? '', name]),
  );
  return pagesByToken.get(token);
}

/** One request the fake answered, as the tests read it. */
export interface BrowseRequest {
  endpoint: 'browse' | 'resolve_url' | 'feed';
  browseId?: string;
  params?: string;
  continuation?: string;
  /** resolve_url's `url`; the feed's `channel_id`. */
  target?: string;
  clientName?: string;
  clientVersion?: string;
  headerName?: string;
}

/** What every browse answers instead, when a test forces it. */
export type BrowseOverride = 403 | 429 | 500 | 'garbage' | undefined;

export interface FakeBrowse {
  readonly log: readonly BrowseRequest[];
  /** Makes every browse request (not resolve_url, not the feed) answer this; undefined undoes. */
  override(answer: BrowseOverride): void;
  reset(): void;
  /** Answers the request if it is one of these endpoints; false when it is not. */
  serve(request: IncomingMessage, url: URL, body: string, response: ServerResponse): boolean;
}

export function createFakeBrowse(): FakeBrowse {
  const log: BrowseRequest[] = [];
  let forced: BrowseOverride;

  function serve(request: IncomingMessage, url: URL, body: string, response: ServerResponse) {
    const json = request.method === 'POST' ? parsed(body) : {};
    const client = json.context?.client ?? {};
    const entry: BrowseRequest = {
      endpoint: 'browse',
      clientName: client.clientName,
      clientVersion: client.clientVersion,
      headerName: request.headers['x-youtube-client-name'] as string | undefined,
    };
    if (request.method === 'POST' && url.pathname === '/youtubei/v1/browse') {
      log.push({
        ...entry,
        browseId: json.browseId,
        params: json.params,
        continuation: json.continuation,
      });
      return answer(response, forced ?? browseAnswer(json));
    }
    if (request.method === 'POST' && url.pathname === '/youtubei/v1/navigation/resolve_url') {
      log.push({ ...entry, endpoint: 'resolve_url', target: json.url });
      return answer(response, resolveAnswer(String(json.url ?? '')));
    }
    if (request.method === 'GET' && url.pathname === '/feeds/videos.xml') {
      const channelId = url.searchParams.get('channel_id') ?? '';
      log.push({ endpoint: 'feed', target: channelId });
      const spec = CHANNELS[channelId];
      const feed = spec && 'feed' in spec ? recording(spec.feed).answer : undefined;
      return answer(response, typeof feed === 'string' ? { xml: feed } : 404);
    }
    return false;
  }

  return {
    log,
    override(answer) {
      forced = answer;
    },
    reset() {
      log.length = 0;
      forced = undefined;
    },
    serve,
  };
}

type Answer = Record<string, unknown> | { xml: string } | BrowseOverride | 400 | 404;

function browseAnswer(json: Record<string, Loose>): Answer {
  if (typeof json.continuation === 'string') {
    const page = pageByToken(json.continuation);
    return page ? answerOf(page) : 400;
  }
  const browseId = String(json.browseId ?? '');
  if (browseId.startsWith('VL')) {
    const spec = PLAYLISTS[browseId.slice(2)];
    if (spec === undefined) return answerOf('playlist-does-not-exist.json');
    if (spec === 'garbage') return 'garbage';
    if ('recording' in spec) return answerOf(spec.recording);
    if ('alert' in spec)
      return {
        alerts: [{ alertRenderer: { type: 'ERROR', text: { runs: [{ text: spec.alert }] } } }],
      };
    return firstPlaylistPage(browseId.slice(2), spec);
  }
  const spec = CHANNELS[browseId];
  if (spec === undefined) return answerOf('channel-does-not-exist.json');
  if ('refuse' in spec) return spec.refuse as 403;
  return answerOf('page' in spec ? spec.page : spec.recording);
}

/** The first page as `browseId: VL…` gets it: the recorded header and first page in one. */
function firstPlaylistPage(
  playlistId: string,
  spec: { header: string; pages: readonly string[]; edit?: 'skipped' },
): Record<string, unknown> {
  const header = answerOf(spec.header);
  const { onResponseReceivedActions, contents: _, ...page } = answerOf(spec.pages[0] ?? '');
  const items: Record<string, Loose>[] =
    onResponseReceivedActions?.[0]?.reloadContinuationItemsCommand?.continuationItems ?? [];
  if (spec.edit === 'skipped') skipSome(items);
  const list = { playlistVideoListRenderer: { playlistId, contents: items } };
  const section = { itemSectionRenderer: { contents: [list] } };
  const tab = {
    tabRenderer: { selected: true, content: { sectionListRenderer: { contents: [section] } } },
  };
  return {
    ...page,
    ...header,
    contents: { twoColumnBrowseResultsRenderer: { tabs: [tab] } },
  };
}

/** Entries 2, 4, 6 and 8 made private, deleted, unplayable and members-only (sources above). */
function skipSome(items: Record<string, Loose>[]): void {
  const gone = (index: number, title: string) => {
    const renderer = items[index]?.playlistVideoRenderer;
    if (!renderer) return;
    renderer.title = { runs: [{ text: title }] };
    renderer.isPlayable = false;
    for (const key of ['lengthText', 'lengthSeconds', 'shortBylineText', 'videoInfo'])
      delete renderer[key];
  };
  gone(1, '[Private video]');
  gone(3, '[Deleted video]');
  const unplayable = items[5]?.playlistVideoRenderer;
  if (unplayable) {
    unplayable.isPlayable = false;
    unplayable.unplayableText = { runs: [{ text: 'Video unavailable' }] };
  }
  const members = answerOf('playlist-members-only-page1.json').onResponseReceivedActions[0]
    .reloadContinuationItemsCommand.continuationItems[0].playlistVideoRenderer.badges;
  if (items[7]?.playlistVideoRenderer) items[7].playlistVideoRenderer.badges = members;
}

function resolveAnswer(target: string): Answer {
  let path = '';
  try {
    path = decodeURIComponent(new URL(target).pathname);
  } catch {
    return 400;
  }
  const channelId = NAMES[path];
  if (channelId === undefined)
    return { status: 404, ...(answerOf('resolve-not-found.json') as object) };
  const resolved = answerOf('resolve-user-creativecommons.json');
  resolved.endpoint.browseEndpoint.browseId = channelId;
  return resolved;
}

/** Sends what a scenario answers; true, for serve() to return. */
function answer(response: ServerResponse, what: Answer): true {
  if (what === 'garbage') {
    send(response, 200, 'application/json', '\u0000{"unterminated": [');
  } else if (typeof what === 'number') {
    const error = { error: { code: what, message: `HTTP ${what}`, status: 'REFUSED' } };
    send(response, what, 'application/json', JSON.stringify(error));
  } else if (what === undefined) {
    send(response, 500, 'text/plain', 'no answer');
  } else if ('xml' in what && typeof what.xml === 'string') {
    send(response, 200, 'text/xml; charset=UTF-8', what.xml);
  } else {
    const { status, ...body } = what as { status?: number };
    send(response, status ?? 200, 'application/json; charset=UTF-8', JSON.stringify(body));
  }
  return true;
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'Content-Type': type });
  response.end(body);
}

function parsed(body: string): Record<string, Loose> {
  try {
    const json: unknown = JSON.parse(body);
    return typeof json === 'object' && json !== null ? (json as Record<string, Loose>) : {};
  } catch {
    return {};
  }
}
