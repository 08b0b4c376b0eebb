// What the page writes from the API's answers, as plain functions (no DOM): the clock of a key
// point, a date, the progress of a job, the Markdown of a summary, which field a problem
// concerns, an API key's lifetime (offered, asked for, and where a key stands with it), and how
// an MCP client is pointed at this deployment with an API key.
// test/unit/web/format.test.ts checks them.

import { markdownLink, markdownParagraphs, markdownText } from '../lib/util/markdown';
import type { Job, Problem, Summary } from './api';

/** 81.2 -> "1:21"; 3725 -> "1:02:05" (as YouTube writes times). */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** An ISO 8601 time as the person's locale writes it (the text itself if it is not one). */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** How far a job is, 0-100, and the same in words. */
export function progressOf(job: Pick<Job, 'status' | 'progress'>): {
  percent: number;
  words: string;
} {
  const { stage, parts_done: done, parts_total: total } = job.progress;
  if (job.status === 'cancelled') return { percent: 0, words: 'Cancelled.' };
  if (job.status === 'failed') return { percent: 0, words: 'Failed.' };
  if (job.status === 'done' || stage === 'done') return { percent: 100, words: 'Done.' };
  switch (stage) {
    case 'queued':
      return { percent: 0, words: 'Waiting for its turn…' };
    case 'transcript':
      return { percent: 5, words: 'Fetching the transcript…' };
    case 'transcribing':
      // Its parts as they finish (5% to 50%: a long talk's transcription is most of the wait).
      if (total === 0) return { percent: 6, words: 'No captions: transcribing the audio…' };
      return {
        percent: 6 + Math.round((44 * Math.min(done, total)) / total),
        words: `No captions: transcribing part ${Math.min(done + 1, total)} of ${total}…`,
      };
    case 'combining':
      // One long model call with nothing to count: the step is named, and the bar's stripes move.
      return {
        percent: 90,
        words:
          total > 1
            ? `Combining ${total} part summaries into one…`
            : 'Combining the parts into one…',
      };
    default: {
      // Summarising: parts, then one combining call (10% to 90% for the parts).
      if (total <= 1) return { percent: 10, words: 'Summarizing…' };
      return {
        percent: 10 + Math.round((80 * Math.min(done, total)) / total),
        words: `Summarizing: ${done} of ${total} parts done…`,
      };
    }
  }
}

/**
 * What a job is called: its video's title once the server knows it (the run has fetched the
 * video), until then the video's id, which wraps on a phone as a link would not.
 */
export function jobTitle(job: Pick<Job, 'video' | 'result'>): string {
  return job.result?.metadata.title ?? job.video.title ?? `Video ID ${job.video.video_id}`;
}

/**
 * The history as listed, with the job the page follows as it last read it (cancelled a moment
 * ago, done, or so new that the list, read from an index a moment behind, misses it): the
 * history never says less than the page knows. Newest first, as the list is.
 */
export function listedWith<T extends Pick<Job, 'id' | 'created_at'>>(
  items: readonly T[],
  job: T | undefined,
): T[] {
  if (!job) return [...items];
  if (items.some((item) => item.id === job.id)) {
    return items.map((item) => (item.id === job.id ? job : item));
  }
  // Older than every job listed: on a page not shown.
  const oldest = items.at(-1);
  if (oldest && job.created_at < oldest.created_at) return [...items];
  const at = items.findIndex((item) => item.created_at < job.created_at);
  return at === -1 ? [...items, job] : [...items.slice(0, at), job, ...items.slice(at)];
}

/** The video on YouTube, from its id. */
export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/** A text's paragraphs (blank lines between them), as the summary and answers are written. */
export function paragraphsOf(text: string): string[] {
  return text.split(/\n{2,}/).filter((paragraph) => paragraph.trim() !== '');
}

/** How much of a citation's quote is shown (its link opens the rest). */
export const CITATION_CHARS = 160;

/**
 * The start of a long text, cut at a word and marked with an ellipsis: a citation quotes the
 * captions from its moment on, which the answer often already holds in full.
 */
export function excerpt(text: string, maxChars: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return trimmed;
  const cut = trimmed.slice(0, maxChars + 1);
  const atWord = cut.lastIndexOf(' ');
  const kept = atWord > 0 ? cut.slice(0, atWord) : trimmed.slice(0, maxChars);
  return `${kept.replace(/[\s,;:]+$/, '')}…`;
}

/**
 * The summary, its chapters and key points (with their links) as Markdown, to paste into notes.
 * Every text in it is escaped and links go to YouTube only (markdown.ts).
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

/** The fields of the summary form a problem can be about. */
export type SummaryField = 'video_url' | 'summary_length' | 'used_model' | 'summary_language';

const ABOUT_THE_VIDEO = new Set([
  'video-unavailable',
  'video-unplayable',
  'age-restricted',
  'captions-disabled',
  'transcript-empty',
  'transcript-language-unavailable',
]);

/**
 * Which field a problem of POST /summarize (or a failed job) is about: the field its `errors`
 * name, or the one its type concerns; undefined when it is about the action as a whole (quota,
 * YouTube blocking this server, the model failing).
 */
export function fieldOf(problem: Problem): SummaryField | undefined {
  const named = problem.errors?.[0]?.field;
  if (
    named === 'video_url' ||
    named === 'summary_length' ||
    named === 'used_model' ||
    named === 'summary_language'
  ) {
    return named;
  }
  if (named === 'language') return 'video_url';
  const type = problem.type.split(':').at(-1) ?? '';
  if (ABOUT_THE_VIDEO.has(type)) return 'video_url';
  if (type === 'summary-length-unsupported') return 'summary_length';
  if (type === 'summary-language-unsupported') return 'summary_language';
  return undefined;
}

/** What to show for a problem: its detail, and for field errors each field's message. */
export function messagesOf(problem: Problem): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const error of problem.errors ?? []) {
    messages[error.field] ??= error.message;
  }
  return messages;
}

/** The lifetimes the page offers a new API key; `never` sends no `expires_in_days`. */
export const KEY_LIFETIMES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const;

/** What the page picks unless the person chooses otherwise: a key that does not last for ever. */
export const DEFAULT_KEY_LIFETIME = '90';

/** The body of POST /api-keys for a name and a lifetime among KEY_LIFETIMES (days, or `never`). */
export function newKeyBody(
  name: string,
  lifetime: string,
): { name: string; expires_in_days?: number } {
  const days = Number(lifetime);
  return Number.isInteger(days) ? { name, expires_in_days: days } : { name };
}

/** Where a key stands with its `expires_at` at `now` (epoch milliseconds). */
export function keyExpiry(expiresAt: string | null, now: number): 'never' | 'expires' | 'expired' {
  if (expiresAt === null) return 'never';
  return Date.parse(expiresAt) <= now ? 'expired' : 'expires';
}

/**
 * The MCP endpoint of the deployment the page came from: `mcp` beside the page, so a page served
 * under a base path (an API Gateway stage) names the right one.
 */
export function mcpEndpoint(pageUrl: string): string {
  return new URL('mcp', pageUrl).href;
}

/** Claude Code's command to add tubesum as an MCP server with this key (as the README and docs/mcp.md give it). */
export function claudeCodeCommand(endpoint: string, key: string): string {
  return `claude mcp add --transport http tubesum ${endpoint} --header "Authorization: Bearer ${key}"`;
}

/**
 * An `mcp.json` for Cursor and the like, reading the key from the environment (so the file can be
 * shared, or kept in a project, without the key).
 */
export function mcpJsonConfig(endpoint: string): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's placeholder, written as is
  const authorization = 'Bearer ${env:TUBESUM_API_KEY}';
  const server = { url: endpoint, headers: { Authorization: authorization } };
  return `${JSON.stringify({ mcpServers: { tubesum: server } }, null, 2)}\n`;
}
