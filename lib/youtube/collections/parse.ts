// Reads InnerTube browse answers: the entries of a page and the token of the next, the alert
// YouTube shows instead of a list, and the title and owner of a playlist or channel. The shapes
// are those of the recordings in test/fixtures/youtube/browse: a playlist's first page inside
// twoColumnBrowseResultsRenderer (playlistVideoListRenderer, as yt-dlp's _extract_entries reads
// it), a channel's videos tab as a richGridRenderer of lockupViewModels, and continuation pages
// as onResponseReceivedActions; the older videoRenderer is read too.

import { isRecord } from '../innertube/player';
import { isVideoId } from '../url';
import type { JsonObject } from './requests';
import type { CollectionEntry, SkipReason } from './types';

/** One page: its entries in order, and the token of the next page when there is one. */
export interface BrowsePage {
  entries: CollectionEntry[];
  continuation?: string;
  /** Whether the answer held a list at all (an empty playlist's does, a broken answer's not). */
  listed: boolean;
}

const SKIP_DETAILS: Record<SkipReason, string> = {
  private: 'YouTube lists it as "[Private video]": only its uploader can watch it.',
  deleted: 'YouTube lists it as "[Deleted video]": it was removed.',
  'members-only': "Only the channel's paying members can watch it.",
  unavailable: 'YouTube lists it as unplayable.',
};

const records = (value: unknown): JsonObject[] =>
  Array.isArray(value) ? value.filter(isRecord) : [];
const at = (value: unknown, ...path: string[]): unknown => {
  let here = value;
  for (const key of path) here = isRecord(here) ? here[key] : undefined;
  return here;
};

/** The text of a YouTube text object: a string, `simpleText`, `runs` or `content`. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return undefined;
  if (typeof value.simpleText === 'string') return value.simpleText;
  if (typeof value.content === 'string') return value.content;
  const runs = records(value.runs);
  if (runs.length === 0) return undefined;
  return runs.map((run) => (typeof run.text === 'string' ? run.text : '')).join('');
}

/** The text of the first ERROR alert (what YouTube shows instead of a missing list). */
export function errorAlertOf(answer: JsonObject): string | undefined {
  for (const alert of records(answer.alerts)) {
    const renderer = alert.alertRenderer ?? alert.alertWithButtonRenderer;
    if (isRecord(renderer) && renderer.type === 'ERROR') return textOf(renderer.text) ?? '';
  }
  return undefined;
}

/** The entries and next token of a first page or a continuation page. */
export function pageOf(answer: JsonObject): BrowsePage {
  const lists: unknown[][] = [];
  for (const tab of records(at(answer, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'))) {
    const content = at(tab, 'tabRenderer', 'content');
    if (!isRecord(content)) continue;
    const grid = at(content, 'richGridRenderer', 'contents');
    if (Array.isArray(grid)) lists.push(grid);
    for (const section of records(at(content, 'sectionListRenderer', 'contents'))) {
      for (const item of records(at(section, 'itemSectionRenderer', 'contents'))) {
        const inner = at(item, 'playlistVideoListRenderer', 'contents');
        if (Array.isArray(inner)) lists.push(inner);
      }
    }
  }
  for (const action of records(answer.onResponseReceivedActions)) {
    const items =
      at(action, 'appendContinuationItemsAction', 'continuationItems') ??
      at(action, 'reloadContinuationItemsCommand', 'continuationItems');
    if (Array.isArray(items)) lists.push(items);
  }
  const page: BrowsePage = { entries: [], listed: lists.length > 0 };
  for (const item of lists.flatMap(records)) {
    const token = at(item, 'continuationItemRenderer', 'continuationEndpoint');
    const command = at(token, 'continuationCommand', 'token');
    if (typeof command === 'string') page.continuation = command;
    const entry = entryOf(item);
    if (entry) page.entries.push(entry);
  }
  return page;
}

/** One item of a list as an entry; undefined for what is not a video (shorts shelves, tokens). */
function entryOf(item: JsonObject): CollectionEntry | undefined {
  const wrapped = at(item, 'richItemRenderer', 'content');
  const holder = isRecord(wrapped) ? wrapped : item;
  if (isRecord(holder.playlistVideoRenderer))
    return fromPlaylistVideo(holder.playlistVideoRenderer);
  if (isRecord(holder.lockupViewModel)) return fromLockup(holder.lockupViewModel);
  if (isRecord(holder.videoRenderer)) return fromVideoRenderer(holder.videoRenderer);
  return undefined;
}

function fromPlaylistVideo(renderer: JsonObject): CollectionEntry | undefined {
  const videoId = renderer.videoId;
  if (typeof videoId !== 'string' || !isVideoId(videoId)) return undefined;
  const title = textOf(renderer.title) ?? '';
  const unplayable = textOf(renderer.unplayableText);
  const reason: SkipReason | undefined =
    title === '[Private video]'
      ? 'private'
      : title === '[Deleted video]'
        ? 'deleted'
        : hasMembersBadge(renderer.badges)
          ? 'members-only'
          : renderer.isPlayable === false || unplayable !== undefined
            ? 'unavailable'
            : undefined;
  const detail =
    reason === 'unavailable' && unplayable ? `YouTube says: "${unplayable}".` : undefined;
  return withSkip({ videoId, title }, reason, detail);
}

/** A channel tab's item (lockupViewModel): videos only, not playlists or shorts. */
function fromLockup(lockup: JsonObject): CollectionEntry | undefined {
  const videoId = lockup.contentId;
  if (lockup.contentType !== 'LOCKUP_CONTENT_TYPE_VIDEO') return undefined;
  if (typeof videoId !== 'string' || !isVideoId(videoId)) return undefined;
  const metadata = at(lockup, 'metadata', 'lockupMetadataViewModel');
  const title = textOf(at(metadata, 'title')) ?? '';
  // NewPipeExtractor (YoutubeStreamInfoItemLockupExtractor) and yt-dlp (_tab.py) read the
  // members-only mark from the metadata rows' badgeViewModel.
  const rows = records(at(metadata, 'metadata', 'contentMetadataViewModel', 'metadataRows'));
  const membersOnly = rows.some((row) =>
    records(row.badges).some(
      (badge) => at(badge, 'badgeViewModel', 'badgeStyle') === 'BADGE_MEMBERS_ONLY',
    ),
  );
  return withSkip({ videoId, title }, membersOnly ? 'members-only' : undefined);
}

function fromVideoRenderer(renderer: JsonObject): CollectionEntry | undefined {
  const videoId = renderer.videoId;
  if (typeof videoId !== 'string' || !isVideoId(videoId)) return undefined;
  const title = textOf(renderer.title) ?? '';
  return withSkip(
    { videoId, title },
    hasMembersBadge(renderer.badges) ? 'members-only' : undefined,
  );
}

/** The members-only badge of playlistVideoRenderer and videoRenderer (recorded: UUMO… list). */
function hasMembersBadge(badges: unknown): boolean {
  return records(badges).some(
    (badge) => at(badge, 'metadataBadgeRenderer', 'style') === 'BADGE_STYLE_TYPE_MEMBERS_ONLY',
  );
}

function withSkip(
  entry: CollectionEntry,
  reason: SkipReason | undefined,
  detail?: string,
): CollectionEntry {
  return reason ? { ...entry, skipped: { reason, detail: detail ?? SKIP_DETAILS[reason] } } : entry;
}

/** A playlist's title and owner, from whichever of its headers the answer holds. */
export function playlistInfoOf(answer: JsonObject): { title?: string; author?: string } {
  const title =
    textOf(at(answer, 'metadata', 'playlistMetadataRenderer', 'title')) ??
    textOf(at(answer, 'header', 'playlistHeaderRenderer', 'title')) ??
    textOf(at(answer, 'header', 'pageHeaderRenderer', 'pageTitle')) ??
    textOf(at(answer, 'microformat', 'microformatDataRenderer', 'title'));
  let author: string | undefined;
  for (const item of records(at(answer, 'sidebar', 'playlistSidebarRenderer', 'items'))) {
    const owner = at(item, 'playlistSidebarSecondaryInfoRenderer', 'videoOwner');
    author ??= textOf(at(owner, 'videoOwnerRenderer', 'title'));
  }
  author ??= textOf(at(answer, 'header', 'playlistHeaderRenderer', 'ownerText'));
  author ??= byLineOf(answer);
  return { title, author };
}

/** The "by <owner>" line of the newer page header (pageHeaderViewModel). */
function byLineOf(answer: JsonObject): string | undefined {
  const view = at(answer, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel');
  const rows = records(at(view, 'metadata', 'contentMetadataViewModel', 'metadataRows'));
  for (const part of rows.flatMap((row) => records(row.metadataParts))) {
    const text = textOf(at(part, 'avatarStack', 'avatarStackViewModel', 'text'));
    if (text) return text.startsWith('by ') ? text.slice(3) : text;
  }
  return undefined;
}

/** A channel's ID and title from its metadata (channelMetadataRenderer), or its page title. */
export function channelInfoOf(answer: JsonObject): { id?: string; title?: string } {
  const metadata = at(answer, 'metadata', 'channelMetadataRenderer');
  const id = at(metadata, 'externalId');
  return {
    id: typeof id === 'string' ? id : undefined,
    title:
      textOf(at(metadata, 'title')) ??
      textOf(at(answer, 'header', 'pageHeaderRenderer', 'pageTitle')),
  };
}
