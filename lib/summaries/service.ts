// The summaries service: POST /summarize and the jobs behind it (GET, list, DELETE). A request
// becomes a job, a user's handle on the record of its summary (how it is started, joined or
// served, and waited for, is the submit path); a job is read, listed and cancelled here, each
// time brought up to date with its record.

import type { User } from '../accounts/users/store';
import type { Logger } from '../logger';
import type { Catalog } from '../models/catalog';
import type { Quota } from '../store/quota';
import { JobNotFoundError } from './jobs/errors';
import { type JobView, viewOf } from './jobs/job-view';
import { recordProgress, refreshJob } from './jobs/outcome';
import type { JobQueue } from './jobs/queue';
import type { SummarizeRequest, SummarizeResponse } from './schemas';
import type { Job, JobProgress, JobStore } from './store/jobs';
import type { RecordStore } from './store/records';
import { submitSummary } from './submit';

// The job as the API shows it, and its poll hint (the routes render it as Retry-After).
export { type JobView, pollAfterSeconds } from './jobs/job-view';

/** What POST /summarize answers: the summary when it was ready within the wait, else the job. */
export type Submitted = (
  | { ready: true; response: SummarizeResponse; job: JobView }
  | { ready: false; job: JobView }
) & {
  /** Whether this request started a new run, and so took (or used) a unit of the quota. */
  charged: boolean;
};

export interface SummaryServiceDeps {
  catalog: Catalog;
  defaultModel: string;
  records: RecordStore;
  jobs: JobStore;
  quota: Quota;
  queue: JobQueue;
  logger: Logger;
}

export interface SummaryService {
  /**
   * Asks for a summary for a user and waits for it at most `waitMs`, telling `onProgress` how
   * its run stands each time it is read while it waits.
   * @throws HttpError: 422 (bad URL, unknown model, a summary_length the model cannot make),
   * 429 (quota), 503 (store or queue down),
   * and whatever the run ended with when it ended within the wait (404, 422, 502-504).
   */
  submit(
    user: Pick<User, 'id'>,
    request: SummarizeRequest,
    options: {
      waitMs: number;
      requestId: string;
      onProgress?: ((progress: JobProgress) => void) | undefined;
      /**
       * The unit a new run takes was taken already, on this UTC day (a collection takes its new
       * summaries' units at once): the run is charged to it, and nothing more is taken.
       */
      prepaid?: { day: string } | undefined;
      /** The collection the job is a video of: told when the job is settled. */
      collection?: string | undefined;
    },
  ): Promise<Submitted>;
  /**
   * The user's job as it now stands (settled when its run ended).
   * @throws JobNotFoundError when there is no such job of theirs.
   */
  job(user: Pick<User, 'id'>, id: string): Promise<Job>;
  /** The user's job. @throws JobNotFoundError when there is no such job of theirs. */
  get(user: User, id: string): Promise<JobView>;
  /** A page of the user's jobs, newest first. @throws ValidationError for a bad cursor. */
  list(
    user: User,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<{ items: JobView[]; next_cursor: string | null }>;
  /**
   * Cancels the user's unfinished job (the view, cancelled) or removes a finished one from
   * their history ('removed'). @throws JobNotFoundError when there is no such job of theirs.
   */
  cancel(user: User, id: string): Promise<JobView | 'removed'>;
}

/** The summaries service over its collaborators (all injectable for tests). */
export function createSummaryService(deps: SummaryServiceDeps): SummaryService {
  return {
    submit: (user, request, options) => submitSummary(deps, user, request, options),
    job: async (user, id) => (await refreshJob(deps, await ownJob(deps, user, id))).job,
    get: (user, id) => viewJob(deps, user, id),
    list: (user, page) => listJobs(deps, user, page),
    cancel: (user, id) => cancelJob(deps, user, id),
  };
}

/** The user's job, or the same 404 whether it does not exist or is someone else's. */
export async function ownJob(
  { jobs }: Pick<SummaryServiceDeps, 'jobs'>,
  user: Pick<User, 'id'>,
  id: string,
): Promise<Job> {
  const job = await jobs.get(id);
  if (!job || job.userId !== user.id) throw new JobNotFoundError();
  return job;
}

/** SummaryService.get: the user's job as the API shows it. */
export async function viewJob(deps: SummaryServiceDeps, user: User, id: string): Promise<JobView> {
  const { job, record } = await refreshJob(deps, await ownJob(deps, user, id));
  return viewOf(job, record);
}

/** SummaryService.list: a page of the user's jobs, each brought up to date. */
export async function listJobs(
  deps: SummaryServiceDeps,
  user: User,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ items: JobView[]; next_cursor: string | null }> {
  const { jobs: found, next } = await deps.jobs.list(user.id, page);
  const items = await Promise.all(
    found.map(async (job) => {
      const { job: current, record } = await refreshJob(deps, job);
      return viewOf(current, record);
    }),
  );
  return { items, next_cursor: next };
}

/** SummaryService.cancel: an unfinished job cancelled, a finished one removed. */
export async function cancelJob(
  deps: SummaryServiceDeps,
  user: User,
  id: string,
): Promise<JobView | 'removed'> {
  const { records, jobs, logger } = deps;
  const { job, record } = await refreshJob(deps, await ownJob(deps, user, id));
  if (job.status !== 'running') {
    // Its record no longer names it, nor its user as the one who paid for its run.
    await records.forget(job.key, job.id, user.id);
    await jobs.remove(job.id);
    logger.info('summary job removed', { job_id: job.id });
    return 'removed';
  }
  const progress = record ? recordProgress(record) : job.progress;
  const cancelled = await jobs.cancel(
    job.id,
    progress ?? { stage: 'queued', parts_done: 0, parts_total: 0 },
    record?.title,
  );
  if (!cancelled) {
    // It finished (or was cancelled) a moment ago: a finished job is removed.
    await records.forget(job.key, job.id, user.id);
    await jobs.remove(job.id);
    return 'removed';
  }
  const stopped = await records.detach(job.key, job.id);
  logger.info('summary job cancelled', { job_id: job.id, run_cancelled: stopped });
  const { job: after } = await refreshJob(deps, (await jobs.get(job.id)) ?? job);
  return viewOf(after, undefined);
}
