// What the page says of a job: how far it is, what it is called, and where it stands in the
// history.

import type { Job } from './api';

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

/** The words for each state of a job, as the history writes them. */
const STATUS_WORDS: Record<Job['status'], string> = {
  queued: 'waiting',
  running: 'in progress',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * What tells two summaries of one video apart: where each stands, the model, the length asked
 * and the language written in (the one asked, else the transcript's once known), e.g.
 * "done · extractive · 150 words · in de".
 */
export function jobDetails(job: Pick<Job, 'status' | 'request' | 'result'>): string {
  const { request, result } = job;
  const language = request.summary_language ?? result?.metadata.transcript_language;
  return [
    STATUS_WORDS[job.status],
    request.used_model,
    `${request.summary_length} words`,
    ...(language ? [`in ${language}`] : []),
  ].join(' · ');
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
