// What the page shows of a problem: which field of the summary form it is about, and each
// field's message.

import type { Problem } from './api';

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
