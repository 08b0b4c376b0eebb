// One vocabulary for where a summary job stands, from the store to the API, and the one place it
// is mapped to what the table keeps. A run ends done, failed or cancelled, and so do its jobs, a
// collection and its videos, in the same words everywhere. Before that, a record and a job are
// `running`, and a client sees a running job as `queued` or `running` by the stage its run
// reached (a collection and its videos are queued until started). The table keeps the words it
// was first written with (`working` for a record, `pending` for a job), so that existing tables
// read the same: only the stores translate, with the functions below. What a job shows of its
// record, and how it is settled: settleJob.
import type { JobStage } from './schemas';

/** How a run, and each job that waits for it, ends. */
export const ENDINGS = ['done', 'failed', 'cancelled'] as const;
export type Ending = (typeof ENDINGS)[number];

/** Where a job stands, as clients see it (the SummaryJob schema's `status`). */
export const JOB_STATUSES = ['queued', 'running', ...ENDINGS] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job in the code: running until its run's ending settles it, or its user cancels it. */
export type JobState = 'running' | Ending;

/** A summary record in the code: running while its run goes on. */
export type RecordState = 'running' | Ending;

/** The table's word for a running record. */
export const STORED_RUNNING_RECORD = 'working';
/** The table's word for a running job. */
export const STORED_RUNNING_JOB = 'pending';

export type StoredRecordState = typeof STORED_RUNNING_RECORD | Ending;
export type StoredJobState = typeof STORED_RUNNING_JOB | Ending;

/** A record's state as the table keeps it. */
export const storedRecordState = (state: RecordState): StoredRecordState =>
  state === 'running' ? STORED_RUNNING_RECORD : state;

/** A record's state as the table kept it, in the code's words. */
export const recordStateOf = (stored: StoredRecordState): RecordState =>
  stored === STORED_RUNNING_RECORD ? 'running' : stored;

/** A job's state as the table keeps it. */
export const storedJobState = (state: JobState): StoredJobState =>
  state === 'running' ? STORED_RUNNING_JOB : state;

/** A job's state as the table kept it, in the code's words. */
export const jobStateOf = (stored: StoredJobState): JobState =>
  stored === STORED_RUNNING_JOB ? 'running' : stored;

/** The status a client sees of a job, from its state and the stage its run reached. */
export function jobStatus(state: JobState, stage: JobStage): JobStatus {
  if (state !== 'running') return state;
  return stage === 'queued' ? 'queued' : 'running';
}
