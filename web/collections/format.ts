// What the page writes of a collection (a playlist or a channel summarized as one), as plain
// functions (no DOM): which links are collections, its progress, its videos' states in words,
// which field a problem of POST /collections is shown by, and its Markdown.
// test/unit/web/collections-format.test.ts checks them.

import { markdownLink, markdownParagraphs, markdownText } from '../../lib/util/markdown';
import type { Collection, Problem } from '../api';
import { watchUrl } from '../markdown';
import { fieldOf, type SummaryField } from '../problems';
import { CITATION_CHARS, excerpt, paragraphsOf } from '../text';
import { clock } from '../times';

type Video = Collection['videos'][number];

export { COLLECTION_LIMIT } from '../../lib/collections/limits';

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
/** Paths whose next segment names a channel: /channel/UC…, /c/name, /user/name. */
const CHANNEL_PATHS = new Set(['channel', 'c', 'user']);

/**
 * A mix (`RD…`) is made for one viewer: a watch link from one means its video. YouTube Music's
 * curated playlists (`RDCLAK5uy_…`) are real playlists.
 */
const isMix = (list: string) => list.startsWith('RD') && !list.startsWith('RDCLAK5uy_');

/**
 * Whether a link names a playlist or a channel (sent to POST /collections) rather than a video
 * (POST /summarize): a /playlist link, a watch, short or embed link with a `list` that is no mix,
 * or a channel's (/@handle, /channel/UC…, /c/name, /user/name). The server checks it again.
 */
export function isCollectionUrl(text: string): boolean {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return false;
  }
  const short = url.hostname === 'youtu.be';
  if (!short && !YOUTUBE_HOSTS.has(url.hostname)) return false;
  const [first = '', second] = url.pathname.split('/').filter((segment) => segment !== '');
  const list = url.searchParams.get('list');
  if (!short && first === 'playlist') return true;
  if (list && (short || first === 'watch' || first === 'embed')) return !isMix(list);
  if (short) return false;
  return first.startsWith('@') || (CHANNEL_PATHS.has(first) && second !== undefined);
}

/** Whether the collection has ended (done, failed or cancelled). */
export const collectionEnded = (collection: Pick<Collection, 'status'>) =>
  collection.status !== 'queued' && collection.status !== 'running';

/** How far a collection is, 0-100, and the same in words. */
export function collectionProgress(collection: Pick<Collection, 'status' | 'progress'>): {
  percent: number;
  words: string;
} {
  const { done, total } = collection.progress;
  const percent = total === 0 ? 0 : Math.round((100 * Math.min(done, total)) / total);
  switch (collection.status) {
    case 'queued':
      return { percent: 0, words: 'Waiting for its turn…' };
    case 'running':
      // Every video settled: the overview is being made (one step with nothing to count).
      if (total > 0 && done >= total) {
        return { percent: 100, words: `Making the overview of ${total} videos…` };
      }
      return { percent, words: `${done} of ${total} videos done…` };
    case 'done':
      return { percent: 100, words: `Done: ${done} of ${total} videos.` };
    case 'cancelled':
      return { percent, words: 'Cancelled.' };
    default:
      return { percent, words: 'Failed.' };
  }
}

const VIDEO_STATUS_WORDS: Record<Video['status'], string> = {
  queued: 'waiting',
  running: 'in progress',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  skipped: 'skipped',
};

const SKIP_REASON_WORDS: Record<NonNullable<Video['reason']>, string> = {
  private: 'it is private',
  deleted: 'it was deleted',
  'members-only': 'it is for members only',
  unavailable: 'it is unavailable',
};

/** Where a video of the collection stands, in words: "done", "skipped: it is private". */
export function videoStatusWords(video: Pick<Video, 'status' | 'reason' | 'error'>): string {
  const words = VIDEO_STATUS_WORDS[video.status];
  if (video.status === 'skipped' && video.reason) {
    return `${words}: ${SKIP_REASON_WORDS[video.reason]}`;
  }
  if (video.status === 'failed' && video.error) return `${words}: ${video.error.detail}`;
  return words;
}

/** What POST /collections's problems concern beyond a summary's: the link, and the limit. */
export type CollectionField = SummaryField | 'limit';

const ABOUT_THE_LINK = new Set([
  'collection-mix-unsupported',
  'collection-empty',
  'playlist-unavailable',
  'channel-unavailable',
]);

/**
 * Which field of the form a problem of POST /collections is about (`url` is the form's link
 * field); undefined when it is about the action (the quota, YouTube refusing the server).
 */
export function collectionFieldOf(problem: Problem): CollectionField | undefined {
  const named = problem.errors?.[0]?.field;
  if (named === 'url') return 'video_url';
  if (named === 'limit') return 'limit';
  if (ABOUT_THE_LINK.has(problem.type.split(':').at(-1) ?? '')) return 'video_url';
  return fieldOf(problem);
}

/** The title of each video of the collection, by id (citations name only the id). */
export function videoTitles(collection: Pick<Collection, 'videos'>): Map<string, string> {
  return new Map(collection.videos.map((video) => [video.video_id, video.title]));
}

/**
 * The collection, its overview, themes (each citation a link to its moment, naming its video)
 * and videos as Markdown, to paste into notes. Every text is escaped and links go to YouTube
 * only, as in a summary's Markdown.
 */
export function collectionMarkdown(collection: Collection): string {
  const { overview } = collection;
  const lines = [
    `# ${markdownLink(collection.title, collection.url)}`,
    '',
    `${markdownText(collection.author)} · ${collection.kind} of ${collection.videos.length} videos`,
  ];
  if (overview) {
    const titles = videoTitles(collection);
    lines.push('', '## Overview', '', markdownParagraphs(paragraphsOf(overview.summary)));
    if (overview.themes.length > 0) lines.push('', '## Themes');
    for (const theme of overview.themes) {
      lines.push('', `### ${markdownText(theme.title)}`, '', markdownText(theme.summary));
      if (theme.citations.length > 0) lines.push('');
      for (const citation of theme.citations) {
        const video = titles.get(citation.video_id) ?? citation.video_id;
        const link = markdownLink(`${clock(citation.start_seconds)} ${video}`, citation.url);
        lines.push(`- ${link}: ${markdownText(excerpt(citation.text, CITATION_CHARS))}`);
      }
    }
  }
  lines.push('', '## Videos', '');
  for (const video of collection.videos) {
    const link = markdownLink(video.title, watchUrl(video.video_id));
    lines.push(`- ${link} (${markdownText(videoStatusWords(video))})`);
  }
  return `${lines.join('\n')}\n`;
}
