// Turns what a user pasted into a playlist or a channel, or refuses it, without any network
// request: outbound requests are later built from a fixed origin and the ID or name found here.
//
// Which lists are mixes: yt-dlp accepts `RD…` as a playlist ID (_PLAYLIST_ID_RE in
// yt_dlp/extractor/youtube/_base.py) but has no playlist page for it: it reads the watch page's
// inline `twoColumnWatchNextResults.playlist` and follows the `next` endpoint (_tab.py,
// _extract_mix_playlist). NewPipeExtractor sends every `RD…` to its mix extractor (isYoutubeMixId
// in YoutubeParsingHelper.java), and its recording of a browse for a list without a page
// answers "This playlist type is unviewable.". The exception is `RDCLAK5uy_…`: YouTube Music's
// curated playlists, which YouTube itself links as `/playlist?list=RDCLAK5uy_…` with
// contentType LOCKUP_CONTENT_TYPE_ALBUM (NewPipeExtractor's systemtopic channel recording), and
// which NewPipe's link handler test accepts as a playlist URL.
import { isVideoId } from '../url';
import { collectionMixUnsupported, notACollection } from './errors';
import type { CollectionTarget } from './types';

export const MAX_COLLECTION_URL_LENGTH = 2048;

/** Prefixes of playlist IDs (yt-dlp's _PLAYLIST_ID_RE), then 10 to 80 ID characters. */
const PLAYLIST_ID = /^(?:PL|LL|EC|UU|FL|RD|UL|TL|PU|OLAK5uy_)[0-9A-Za-z_-]{10,80}$/;
/** A channel ID: `UC` and 22 characters. */
const CHANNEL_ID = /^UC[0-9A-Za-z_-]{22}$/;
/** A handle: 3-30 letters, digits, `_`, `-`, `.` (YouTube's rule), in any script. */
const HANDLE = /^@[\p{L}\p{N}_.-]{3,30}$/u;
/** A `/c/` or `/user/` name. */
const LEGACY_NAME = /^[\p{L}\p{N}_.-]{1,100}$/u;
/** The account's own lists (Watch later, Liked videos, Liked music): only signed in. */
const OWN_LISTS = new Set(['WL', 'LL', 'LM']);
/** YouTube Music's curated playlists, which have a playlist page (see above). */
const CURATED_PREFIX = 'RDCLAK5uy_';

const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const SHORT_HOST = 'youtu.be';
const SCHEMELESS = /^(?:(?:www|m|music)\.)?(?:youtube\.com|youtu\.be)\//i;
/** A channel page's tabs: a link to any of them means the channel. */
const CHANNEL_TABS = new Set([
  'videos',
  'featured',
  'streams',
  'shorts',
  'playlists',
  'podcasts',
  'community',
  'posts',
  'about',
  'live',
]);

const FORMS_HINT =
  'Use a playlist link (youtube.com/playlist?list=…, or a watch link with &list=…), a channel link (youtube.com/@handle, /channel/UC…, /c/name, /user/name), a playlist ID or a channel ID.';

/**
 * The playlist or channel a link (or a bare ID or handle) names. A watch link with `list=`
 * means the list.
 * @throws UnprocessableError 422 collection-mix-unsupported for a mix (`RD…`);
 * ValidationError 422 (field `url`) for anything else, a video link without a list included.
 */
export function parseCollectionUrl(input: string): CollectionTarget {
  if (typeof input !== 'string') throw notACollection('Send the link as a JSON string.');
  if (input.length > MAX_COLLECTION_URL_LENGTH) {
    throw notACollection(`Use a link of at most ${MAX_COLLECTION_URL_LENGTH} characters.`);
  }
  const trimmed = input.trim();
  if (trimmed === '') throw notACollection(`Fill in this field. ${FORMS_HINT}`);
  const bare = bareTarget(trimmed);
  if (bare) return bare;
  if (isVideoId(trimmed)) throw videoNotCollection();
  // As parseVideoId: anything outside printable ASCII is refused before the WHATWG parser can
  // normalise it into a YouTube host; handles in other scripts arrive percent-encoded.
  if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    throw notACollection(
      `This link has spaces or characters other than plain ASCII. ${FORMS_HINT}`,
    );
  }
  const withScheme = SCHEMELESS.test(trimmed) ? `https://${trimmed}` : trimmed;
  const authority = /^https?:\/\/([^/?#]*)/i.exec(withScheme)?.[1];
  if (authority === undefined || !/^[A-Za-z0-9.-]+$/.test(authority)) {
    throw notACollection(`This is not an http or https link to youtube.com. ${FORMS_HINT}`);
  }
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw notACollection(`This is not a valid link. ${FORMS_HINT}`);
  }
  if (!HOSTS.has(url.hostname) && url.hostname !== SHORT_HOST) {
    throw notACollection(`This link is not on youtube.com. ${FORMS_HINT}`);
  }
  return targetOfUrl(url);
}

/** A bare playlist ID, channel ID or handle. */
function bareTarget(text: string): CollectionTarget | undefined {
  if (CHANNEL_ID.test(text)) return { kind: 'channel', channelId: text };
  if (HANDLE.test(text)) return { kind: 'channel', handle: text };
  if (PLAYLIST_ID.test(text) || OWN_LISTS.has(text) || text === 'RDMM') return playlist(text);
  return undefined;
}

function targetOfUrl(url: URL): CollectionTarget {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const lists = new Set(url.searchParams.getAll('list'));
  if (lists.size > 1)
    throw notACollection(`This link has two different \`list\` values. ${FORMS_HINT}`);
  const [list] = lists;
  const listPage =
    url.hostname === SHORT_HOST
      ? segments.length === 1
      : segments.length === 1
        ? segments[0] === 'playlist' || segments[0] === 'watch'
        : segments.length === 2 && segments[0] === 'embed';
  if (listPage) {
    if (list !== undefined) return playlistFromList(list);
    throw segments[0] === 'playlist'
      ? notACollection(`This link has no \`list\`. ${FORMS_HINT}`)
      : videoNotCollection();
  }
  if (url.hostname === SHORT_HOST)
    throw notACollection(`This link names no playlist or channel. ${FORMS_HINT}`);
  const channel = channelOfPath(segments);
  if (channel) return channel;
  if (segments.length === 2 && (segments[0] === 'shorts' || segments[0] === 'live')) {
    throw videoNotCollection();
  }
  throw notACollection(`This link points at neither a playlist nor a channel. ${FORMS_HINT}`);
}

function playlistFromList(list: string): CollectionTarget {
  if (PLAYLIST_ID.test(list) || OWN_LISTS.has(list) || list === 'RDMM') return playlist(list);
  throw notACollection(`This link's \`list\` is not a YouTube playlist ID. ${FORMS_HINT}`);
}

/** A playlist, unless it is a mix or a list of the signed-in account. */
function playlist(id: string): CollectionTarget {
  if (id.startsWith('RD') && !id.startsWith(CURATED_PREFIX)) throw collectionMixUnsupported(id);
  if (OWN_LISTS.has(id)) {
    throw notACollection(
      `"${id}" is a signed-in account's own list (Watch later, Liked videos), which this service cannot read. Use a public or unlisted playlist.`,
    );
  }
  return { kind: 'playlist', playlistId: id };
}

/** `/@handle`, `/channel/UC…`, `/c/name`, `/user/name`, each optionally with a tab after it. */
function channelOfPath(segments: string[]): CollectionTarget | undefined {
  const [first = '', second, third] = segments;
  const tabOk = (tab: string | undefined) => tab === undefined || CHANNEL_TABS.has(tab);
  if (first.startsWith('@')) {
    const handle = decoded(first);
    if (segments.length > 2 || !tabOk(second) || !handle || !HANDLE.test(handle)) {
      throw notACollection(`This is not a valid channel handle. ${FORMS_HINT}`);
    }
    return { kind: 'channel', handle };
  }
  if (first !== 'channel' && first !== 'c' && first !== 'user') return undefined;
  const name = second === undefined ? undefined : decoded(second);
  if (segments.length > 3 || !tabOk(third) || name === undefined) {
    throw notACollection(`This link names no channel. ${FORMS_HINT}`);
  }
  if (first === 'channel') {
    if (!CHANNEL_ID.test(name))
      throw notACollection(`This is not a channel ID (UC…). ${FORMS_HINT}`);
    return { kind: 'channel', channelId: name };
  }
  if (!LEGACY_NAME.test(name)) throw notACollection(`This is not a channel name. ${FORMS_HINT}`);
  return { kind: 'channel', legacy: { type: first, name } };
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function videoNotCollection() {
  return notACollection(
    'This is a video, not a playlist or a channel: summarize one video with POST /summarize, or add the `list` of its playlist.',
  );
}
