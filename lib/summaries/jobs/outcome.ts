// What a job shows of its summary record: the summary as the job's own request asked for it,
// or the problem, and where the run stands; and settleJob, the one place a job is settled, used
// by the worker (the jobs that waited, when a run ends) and the service (a job read first).
import { storeProblem } from '../../problems/codec';
import type { SummarizeResponse } from '../schemas';
import type { Job, JobOutcome, JobProgress, JobStore } from '../store/jobs';
import type { RecordStore, SummaryRecord } from '../store/records';
import { SummaryInterruptedError } from './errors';

/** Where a record's run stands, as a job shows it. */
export function recordProgress(record: SummaryRecord): JobProgress {
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
      progress: recordProgress(record),
      ...(record.title === undefined ? {} : { title: record.title }),
    };
  }
  return undefined;
}

/** How a job ends whose record is gone: its work was lost, and it may be asked for again. */
function lostRun(): JobOutcome {
  return {
    status: 'failed',
    problem: storeProblem(
      new SummaryInterruptedError('The work on this summary was lost; ask for it again.', 1),
    ),
    progress: { stage: 'queued', parts_done: 0, parts_total: 0 },
  };
}

/**
 * Settles a running job with how its run ended (a record that is gone: interrupted), as updated
 * at `now`. Whoever writes first wins (the worker when the run ends, or the service when the job
 * is read first): `written` says whether this call did; when it did not, the job was settled or
 * cancelled meanwhile and the store says what it is now. Undefined while the run goes on.
 */
export async function settleJob(
  jobs: Pick<JobStore, 'settle'>,
  job: Job,
  record: SummaryRecord | undefined,
  now = Date.now(),
): Promise<{ job: Job; written: boolean } | undefined> {
  const outcome = record ? outcomeFor(job, record, now) : lostRun();
  if (!outcome) return undefined;
  const written = await jobs.settle(job.id, outcome, now);
  return { job: { ...job, ...outcome, updatedAt: now }, written };
}

/**
 * A running job brought up to date with its record: settled when the run ended (the worker
 * settles it too; whichever comes first wins), failed when the record is gone.
 */
export async function refreshJob(
  { records, jobs }: { records: Pick<RecordStore, 'get'>; jobs: JobStore },
  job: Job,
  known?: SummaryRecord,
): Promise<{ job: Job; record?: SummaryRecord }> {
  if (job.status !== 'running') return { job };
  const record = known ?? (await records.get(job.key));
  const settled = await settleJob(jobs, job, record);
  if (!settled) return { job, ...(record ? { record } : {}) };
  // The job as stored, updated_at too: the read that settles it shows what every later one does.
  if (settled.written) return { job: settled.job };
  // Settled meanwhile (by the worker, or cancelled): what the job now says wins.
  return { job: (await jobs.get(job.id)) ?? settled.job };
}
