// What a job shows of its summary record: the summary as the job's own request asked for it,
// or the problem, and where the run stands. Shared by the worker (which settles the jobs that
// waited when a run ends) and the service (which settles a job whose worker could not).
import type { SummarizeResponse } from './schemas';
import type { Job, JobOutcome, JobProgress } from './store/jobs';
import type { SummaryRecord } from './store/records';

/** Where a record's run stands, as a job shows it. */
export function progressOf(record: SummaryRecord): JobProgress {
  return {
    stage: record.stage,
    parts_done: Math.min(record.partsDone, record.partsTotal),
    parts_total: record.partsTotal,
  };
}

/**
 * The answer to one request: without key points or chapters when it asked for none, and marked
 * as cached (with this request's own elapsed time) when the summary was made for another request.
 */
export function answerFor(
  value: SummarizeResponse,
  request: { include_key_points: boolean; include_chapters: boolean },
  shared: { since: number } | false,
  now = Date.now(),
): SummarizeResponse {
  const { key_points, chapters, ...rest } = value;
  return {
    ...rest,
    ...(request.include_key_points && key_points !== undefined ? { key_points } : {}),
    ...(request.include_chapters && chapters !== undefined ? { chapters } : {}),
    ...(shared
      ? { metadata: { ...value.metadata, cached: true, elapsed_ms: now - shared.since } }
      : {}),
  };
}

/** How a run's end settles a job, or undefined while the run goes on (or was cancelled). */
export function outcomeFor(
  job: Job,
  record: SummaryRecord,
  now = Date.now(),
): JobOutcome | undefined {
  if (record.state === 'done' && record.value) {
    const shared = job.shared ? { since: job.createdAt } : false;
    return {
      status: 'done',
      result: answerFor(record.value, job.request, shared, now),
      progress: { stage: 'done', parts_done: record.partsTotal, parts_total: record.partsTotal },
    };
  }
  if (record.state === 'failed' && record.problem) {
    return {
      status: 'failed',
      problem: record.problem,
      progress: progressOf(record),
      ...(record.title === undefined ? {} : { title: record.title }),
    };
  }
  return undefined;
}
