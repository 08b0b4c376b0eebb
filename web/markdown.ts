// A summary as Markdown to paste into notes (Copy as Markdown), and the link to its video.

import { markdownLink, markdownParagraphs, markdownText } from '../lib/util/markdown';
import type { Summary } from './api';
import { paragraphsOf } from './text';
import { clock } from './times';

/** The video on YouTube, from its id. */
export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/**
 * The summary, its chapters and key points (with their links) as Markdown, to paste into notes.
 * Every text in it is escaped and links go to YouTube only.
 */
export function summaryMarkdown(summary: Summary): string {
  const { metadata } = summary;
  const lines = [
    `# ${markdownLink(metadata.title, watchUrl(metadata.video_id))}`,
    '',
    `${markdownText(metadata.channel_title)} · summary of ${summary.word_count} words`,
    '',
    markdownParagraphs(paragraphsOf(summary.summary)),
  ];
  if (summary.chapters && summary.chapters.length > 0) {
    lines.push('', '## Chapters', '');
    for (const chapter of summary.chapters) {
      const link = markdownLink(`${clock(chapter.start_seconds)} ${chapter.title}`, chapter.url);
      lines.push(`- ${link}: ${markdownText(chapter.summary)}`);
    }
  }
  if (summary.key_points && summary.key_points.length > 0) {
    lines.push('', '## Key points', '');
    for (const point of summary.key_points) {
      lines.push(
        `- ${markdownLink(`${point.time_estimated ? '~' : ''}${clock(point.start_seconds)}`, point.url)} ${markdownText(point.text)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
