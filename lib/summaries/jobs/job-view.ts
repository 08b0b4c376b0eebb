// A summary job as the API shows it (the SummaryJob schema): its status in the API's words, its
// live progress read from its record while it is running, and how soon a client should ask again.
import { type Problem, storedProblemDocument } from '../../problems/codec';
import type { SummarizeResponse } from '../schemas';
import type { Job, JobProgress } from '../store/jobs';
import { type SummaryRecord, videoIdOfKey } from '../store/records';
import { type JobStatus, jobStatus } from './job-states';
import { recordProgress } from './outcome';

/** A job as the API shows it (the SummaryJob schema). */
export interface JobView {
  id: string;
  status: JobStatus;
  progress: JobProgress;
  request: Job['request'];
  video: { video_id: string; title: string | null };
  result: SummarizeResponse | null;
  error: Problem | null;
  created_at: string;
  updated_at: string;
}

/** Where a job stands before its run got anywhere. */
const NOT_STARTED: JobProgress = { stage: 'queued', parts_done: 0, parts_total: 0 };

/** A job as the API shows it, its live progress read from its record while it is running. */
export function viewOf(job: Job, record: SummaryRecord | undefined): JobView {
  // A running job's progress is its record's (none yet: not started); a settled one keeps its own.
  const running = job.status === 'running';
  const progress = (running ? record && recordProgress(record) : job.progress) ?? NOT_STARTED;
  return {
    id: job.id,
    status: jobStatus(job.status, progress.stage),
    progress,
    request: job.request,
    video: {
      video_id: videoIdOfKey(job.key) ?? '',
      title: job.result?.metadata.title ?? record?.title ?? job.title ?? null,
    },
    result: job.result ?? null,
    error: job.problem ? storedProblemDocument(job.problem, job.requestId) : null,
    created_at: new Date(job.createdAt).toISOString(),
    updated_at: new Date(Math.max(job.updatedAt, record?.updatedAt ?? 0)).toISOString(),
  };
}

/** Seconds a client should wait before polling a job again: soon while it starts, then less often. */
export function pollAfterSeconds(job: Pick<JobView, 'progress'>): number {
  return job.progress.stage === 'queued' || job.progress.stage === 'transcript' ? 2 : 5;
}
