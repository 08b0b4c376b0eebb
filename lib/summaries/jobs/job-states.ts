// One vocabulary for where a summary job stands, from the store to the API. A run ends done,
// failed or cancelled, and so do its jobs, in the same words everywhere. Before that, its
// record is `working` and its jobs `pending` (stored values, kept as they are so that existing
// tables read the same), and a client sees a pending job as `queued` or `running` by the stage
// its run reached. What a job shows of its record, and how it is settled: outcome.ts.
import type { JobStage } from './schemas';

/** How a run, and each job that waits for it, ends. */
export const ENDINGS = ['done', 'failed', 'cancelled'] as const;
export type Ending = (typeof ENDINGS)[number];

/** Where a job stands, as clients see it (the SummaryJob schema's `status`). */
export const JOB_STATUSES = ['queued', 'running', ...ENDINGS] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job as stored: pending until its run's ending settles it, or its user cancels it. */
export type StoredJobStatus = 'pending' | Ending;

/** A summary record as stored: working while its run goes on. */
export type RecordState = 'working' | Ending;

/** The status a client sees of a job, from its stored status and the stage its run reached. */
export function jobStatus(status: StoredJobStatus, stage: JobStage): JobStatus {
  if (status !== 'pending') return status;
  return stage === 'queued' ? 'queued' : 'running';
}
