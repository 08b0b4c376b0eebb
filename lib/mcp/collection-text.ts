// A collection, and an answer across one, as the MCP tools say them to the model before the JSON:
// Markdown a person can read too (the title, where it stands, each video with its link, the
// overview and its themes with links to the moments they cite). The texts in it come from
// YouTube (titles, names, captions) or a model: each is escaped as the page's Copy as Markdown
// escapes it, so that none can start a heading or a list, add HTML or
// close a link around something else; links go to YouTube only.
import type {
  CollectionAskResponse,
  CollectionCitation,
  CollectionVideoView,
  CollectionView,
} from '../collections/schemas';
import { formatTimestamp } from '../transcripts/timed-line';
import { markdownLink, markdownParagraphs, markdownText } from '../util/markdown';
import { cutText } from '../util/text';

/**
 * Videos listed one by one; past them, a count (a 200-video playlist would pass the 25,000
 * characters some hosts cut a tool's text at: structuredContent lists them all).
 */
const LISTED_VIDEOS = 50;

/** A text as paragraphs of Markdown, each line escaped. */
const paragraphs = (text: string) => markdownParagraphs(text.split(/\n{2,}/));

/** What one video's status says, and why when it did not go through. */
function videoStatus(video: CollectionVideoView): string {
  if (video.status === 'skipped') return `skipped (${video.reason ?? 'unavailable'})`;
  if (video.status === 'failed' && video.error) {
    return `failed: ${markdownText(video.error.detail)}`;
  }
  if (video.status === 'done' && video.summary_id) {
    return `done (get_summary id ${video.summary_id})`;
  }
  return video.status;
}

/** A citation as one list item: where (video, time) as a link, and what is said there. */
function citationLine(citation: CollectionCitation): string {
  const at = formatTimestamp(citation.start_seconds * 1000);
  const said = markdownText(cutText(citation.text, 30, 200));
  return `- ${markdownLink(`${citation.video_id} at ${at}`, citation.url)}: ${said}`;
}

/** The collection as Markdown: what a model reads first, and a person could paste. */
export function collectionMarkdown(collection: CollectionView): string {
  const { progress, request } = collection;
  const kind = collection.kind === 'channel' ? 'Channel' : 'Playlist';
  const lines = [
    `# ${markdownLink(collection.title, collection.url)}`,
    '',
    `${kind} by ${markdownText(collection.author)}. Collection id: ${collection.id}.`,
    `Status: ${collection.status}, ${progress.done} of ${progress.total} videos settled (${request.used_model}, about ${request.summary_length} words each).`,
  ];
  if (collection.more) {
    lines.push(`Only the first ${request.limit} videos were read: it has more.`);
  }
  if (collection.error) {
    lines.push(`Error: ${markdownText(collection.error.detail)}`);
  }
  lines.push('', '## Videos', '');
  collection.videos.forEach((video, i) => {
    if (i < LISTED_VIDEOS) {
      lines.push(`${i + 1}. ${markdownLink(video.title, video.url)}: ${videoStatus(video)}`);
    }
  });
  const unlisted = collection.videos.length - LISTED_VIDEOS;
  if (unlisted > 0) {
    const byStatus = new Map<string, number>();
    for (const video of collection.videos.slice(LISTED_VIDEOS)) {
      byStatus.set(video.status, (byStatus.get(video.status) ?? 0) + 1);
    }
    const counts = [...byStatus].map(([status, count]) => `${count} ${status}`).join(', ');
    lines.push(`…and ${unlisted} more (${counts}): the structured content lists every video.`);
  }
  const { overview } = collection;
  if (overview) {
    lines.push('', '## Overview', '', paragraphs(overview.summary));
    for (const theme of overview.themes) {
      lines.push('', `### ${markdownText(theme.title)}`, '', paragraphs(theme.summary));
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
