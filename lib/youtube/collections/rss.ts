// Reads a channel's Atom feed (`/feeds/videos.xml?channel_id=UC…`): its title and author, and
// its entries newest first. YouTube's feed holds the latest 15 uploads and nothing older, and
// says nothing of members-only or private videos. Read with indexOf, not an XML parser or a
// pattern that could backtrack: the feed's few elements are always written the same way.
import { decodeEntities } from '../captions/transcript';
import { youTubeBadResponse } from '../errors';
import { isVideoId } from '../url';
import type { CollectionEntry } from './types';

/** How many entries YouTube's feed holds at most. */
export const FEED_SIZE = 15;

export interface Feed {
  title: string;
  author: string;
  entries: CollectionEntry[];
}

/**
 * The feed's title, author and entries in its order.
 * @throws 502 youtube-bad-response when the text is not a YouTube feed.
 */
export function parseFeed(xml: string): Feed {
  if (!xml.includes('<feed')) throw youTubeBadResponse('a channel feed that is not an Atom feed');
  const firstEntry = xml.indexOf('<entry>');
  const head = firstEntry === -1 ? xml : xml.slice(0, firstEntry);
  const entries: CollectionEntry[] = [];
  for (let start = firstEntry; start !== -1; start = xml.indexOf('<entry>', start + 1)) {
    const end = xml.indexOf('</entry>', start);
    if (end === -1) break;
    const entry = xml.slice(start, end);
    const videoId = element(entry, 'yt:videoId');
    if (videoId === undefined || !isVideoId(videoId)) continue;
    entries.push({ videoId, title: element(entry, 'title') ?? '' });
  }
  const author = element(between(head, 'author') ?? '', 'name');
  return { title: element(head, 'title') ?? '', author: author ?? '', entries };
}

/** The decoded text of the first `<name>…</name>` in `xml`. */
function element(xml: string, name: string): string | undefined {
  const raw = between(xml, name);
  return raw === undefined ? undefined : decodeEntities(raw).trim();
}

/** What the first `<name>…</name>` in `xml` holds, as written. */
function between(xml: string, name: string): string | undefined {
  const open = xml.indexOf(`<${name}>`);
  if (open === -1) return undefined;
  const from = open + name.length + 2;
  const close = xml.indexOf(`</${name}>`, from);
  return close === -1 ? undefined : xml.slice(from, close);
}
