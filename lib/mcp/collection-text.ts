// A collection, and an answer across one, as the MCP tools say them to the model before the JSON:
// Markdown a person can read too (the title, where it stands, each video with its link, the
// overview and its themes with links to the moments they cite). The texts in it come from
// YouTube (titles, names, captions) or a model: each is kept to one line and its Markdown marks
// escaped, so that none can start a heading or a list or close a link around something else.
import type {
  CollectionAskResponse,
  CollectionCitation,
  CollectionVideoView,
  CollectionView,
} from '../collections/schemas';
import { formatTimestamp } from '../summaries/timed-line';
import { cutText } from '../util/text';

/** Line breaks of every kind: a text of one line stays one line. */
const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029]+/g;
/** Marks that format wherever they stand, `\` first; `<` and `>` (raw HTML, autolinks). */
const MARKS = /[\\`*_~[\]|<>]/g;
/** Marks that format at the start of a line: headings, lists, setext underlines. */
const LINE_START = /^(?:([#+=-])|(\d{1,9})([.)]))/;

/**
 * One line of text that reads as itself in Markdown (and in a link's text): line breaks become
 * spaces, marks are backslash-escaped, and GFM's bare links (`https://…`, `www.…`) are broken so
 * that they stay text (as the page's web/markdown.ts writes its Markdown).
 */
export function inlineText(text: string): string {
  return text
    .replace(LINE_BREAKS, ' ')
    .trim()
    .replace(MARKS, '\\$&')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(LINE_START, (_, mark: string | undefined, digits: string, end: string) =>
      mark === undefined ? `${digits}\\${end}` : `\\${mark}`,
    );
}

/** A text of lines as Markdown paragraphs, each line as inlineText makes it. */
function paragraphs(text: string): string {
  return text
    .split('\n')
    .map(inlineText)
    .filter((line) => line !== '')
    .join('\n\n');
}

/** Only links to YouTube are written as links (the service builds them from video ids). */
const link = (label: string, url: string) =>
  url.startsWith('https://www.youtube.com/') ? `[${label}](${url})` : label;

/** What one video's status says, and why when it did not go through. */
function videoStatus(video: CollectionVideoView): string {
  if (video.status === 'skipped') return `skipped (${video.reason ?? 'unavailable'})`;
  if (video.status === 'failed' && video.error) {
    return `failed: ${inlineText(video.error.detail)}`;
  }
  if (video.status === 'done' && video.summary_id) {
    return `done (get_summary id ${video.summary_id})`;
  }
  return video.status;
}

/** A citation as one list item: where (video, time) as a link, and what is said there. */
function citationLine(citation: CollectionCitation): string {
  const at = formatTimestamp(citation.start_seconds * 1000);
  const said = inlineText(cutText(citation.text, 30, 200));
  return `- ${link(`${citation.video_id} at ${at}`, citation.url)}: ${said}`;
}

/** The collection as Markdown: what a model reads first, and a person could paste. */
export function collectionMarkdown(collection: CollectionView): string {
  const { progress, request } = collection;
  const kind = collection.kind === 'channel' ? 'Channel' : 'Playlist';
  const lines = [
    `# ${link(inlineText(collection.title), collection.url)}`,
    '',
    `${kind} by ${inlineText(collection.author)}. Collection id: ${collection.id}.`,
    `Status: ${collection.status}, ${progress.done} of ${progress.total} videos settled (${request.used_model}, about ${request.summary_length} words each).`,
  ];
  if (collection.more) {
    lines.push(`Only the first ${request.limit} videos were read: it has more.`);
  }
  if (collection.error) {
    lines.push(`Error: ${inlineText(collection.error.detail)}`);
  }
  lines.push('', '## Videos', '');
  collection.videos.forEach((video, i) => {
    lines.push(`${i + 1}. ${link(inlineText(video.title), video.url)}: ${videoStatus(video)}`);
  });
  const { overview } = collection;
  if (overview) {
    lines.push('', '## Overview', '', paragraphs(overview.summary));
    for (const theme of overview.themes) {
      lines.push('', `### ${inlineText(theme.title)}`, '', paragraphs(theme.summary));
      if (theme.citations.length > 0) lines.push('', ...theme.citations.map(citationLine));
    }
  }
  return lines.join('\n');
}

/** An answer across a collection as Markdown: the answer, then each citation with its link. */
export function collectionAnswerMarkdown(answer: CollectionAskResponse): string {
  const lines = [paragraphs(answer.answer)];
  if (answer.citations.length > 0) {
    lines.push('', 'Citations:', ...answer.citations.map(citationLine));
  }
  return lines.join('\n');
}
