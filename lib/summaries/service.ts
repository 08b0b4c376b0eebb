// The summaries service: POST /summarize and the jobs behind it (GET, list, DELETE). A request
// becomes a job, a user's handle on the record of its summary: served at once from a finished
// record (the cache), attached to a run already under way (identical requests make their summary
// once, whoever sends them), or a new run handed to the workers through the queue. The request
// then waits for the run, within its wait; a summary not ready by then is answered as the job.

import type { User } from '../accounts/users/store';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { type Catalog, resolveModel } from '../models/catalog';
import { storedError, storeProblem } from '../problems/codec';
import type { Quota } from '../store/quota';
import { parseVideoId } from '../youtube/url';
import { JobNotFoundError, QueueUnavailableError, SummaryInProgressError } from './jobs/errors';
import { type JobView, viewOf } from './jobs/job-view';
import { answerFor, recordProgress, settleJob } from './jobs/outcome';
import type { JobQueue } from './jobs/queue';
import { plannerFor, SummaryLengthError } from './llm/plan';
import type { SummarizeRequest, SummarizeResponse } from './schemas';
import { type Job, type JobProgress, type JobStore, newJobId } from './store/jobs';
import {
  type RecordStore,
  reusable,
  type SummaryRecord,
  summaryKey,
  type Work,
} from './store/records';

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

/** How often a request tries to start or join a run while the record keeps changing. */
const MAX_ATTEMPTS = 10;

/** How often a waiting request looks at its record: soon at first, then every second. */
const POLL_FIRST_MS = 50;
const POLL_MAX_MS = 1_000;

/** The summaries service over its collaborators (all injectable for tests). */
export function createSummaryService(deps: SummaryServiceDeps): SummaryService {
  const { records, jobs, logger } = deps;

  /**
   * A running job brought up to date with its record: settled when the run ended (the worker
   * settles it too; whichever comes first wins), failed when the record is gone.
   */
  async function refresh(
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

  /** The user's job, or the same 404 whether it does not exist or is someone else's. */
  async function ownJob(user: Pick<User, 'id'>, id: string): Promise<Job> {
    const job = await jobs.get(id);
    if (!job || job.userId !== user.id) throw new JobNotFoundError();
    return job;
  }

  /** Waits until the record's run ends or `waitMs` passes; the record as last read. */
  async function waitFor(
    key: string,
    waitMs: number,
    onProgress?: (progress: JobProgress) => void,
  ): Promise<SummaryRecord | undefined> {
    const deadline = Date.now() + waitMs;
    let pause = POLL_FIRST_MS;
    for (;;) {
      const record = await records.get(key);
      if (record) onProgress?.(recordProgress(record));
      const left = deadline - Date.now();
      if (record?.state !== 'running' || left <= 0) return record;
      const wake = new AbortController();
      await Promise.race([
        new Promise((resolve) => setTimeout(resolve, Math.min(pause, left))),
        deps.queue.settled?.(key, wake.signal) ?? new Promise(() => undefined),
      ]);
      wake.abort();
      pause = Math.min(POLL_MAX_MS, pause * 2);
    }
  }

  return {
    async submit(user, request, { waitMs, requestId, onProgress, prepaid, collection }) {
      // All are checked before any I/O: a bad URL, model or length costs no request anywhere,
      // no job and no quota unit.
      const videoId = parseVideoId(request.video_url);
      const model = resolveModel(deps.catalog, request.used_model ?? deps.defaultModel);
      if (model.kind !== 'extractive') {
        const longest = plannerFor(model).longestSummary();
        if (request.summary_length > longest) {
          throw new SummaryLengthError(model.name, request.summary_length, longest);
        }
      }
      const work: Work = { videoId, model: model.name, length: request.summary_length };
      if (request.language !== undefined) work.language = request.language;
      if (request.summary_language !== undefined) work.summaryLanguage = request.summary_language;
      const key = summaryKey(work);
      const now = Date.now();
      const job: Job = {
        id: newJobId(),
        userId: user.id,
        key,
        request: {
          video_url: request.video_url,
          summary_length: request.summary_length,
          used_model: model.name,
          include_key_points: request.include_key_points,
          include_chapters: request.include_chapters,
          ...(request.language === undefined ? {} : { language: request.language }),
          ...(request.summary_language === undefined
            ? {}
            : { summary_language: request.summary_language }),
        },
        status: 'running',
        shared: true,
        requestId,
        ...(collection === undefined ? {} : { collection }),
        createdAt: now,
        updatedAt: now,
      };

      let record = await records.get(key);
      const fields = { video_id: videoId, model: model.name, job_id: job.id };
      for (let attempt = 0; ; attempt++) {
        const use = reusable(record);
        if (use === 'done' && record?.value) {
          const response = answerFor(record.value, job.request, { since: now });
          const done: Job = {
            ...job,
            status: 'done',
            result: response,
            progress: {
              stage: 'done',
              parts_done: record.partsTotal,
              parts_total: record.partsTotal,
            },
          };
          await jobs.create(done);
          logger.info('summary served from cache', fields);
          return { ready: true, response, job: viewOf(done, undefined), charged: false };
        }
        // A verdict on the video found a moment ago is every identical request's answer.
        if (use === 'failed' && record?.problem) throw storedError(record.problem);
        if (use === 'running' && (await records.attach(key, job.id))) {
          await jobs.create(job);
          logger.info('summary job waits for a run under way', fields);
          break;
        }
        if (use === 'free') {
          // A new run: its job's user pays for it, in the same write that starts it.
          const charge = prepaid
            ? { day: prepaid.day, exceeded: () => deps.quota.reservation(user.id).exceeded() }
            : deps.quota.reservation(user.id);
          const claimed = await records.claim(key, {
            work,
            jobId: job.id,
            requestId,
            charge,
            userId: user.id,
          });
          if (claimed === 'quota') throw charge.exceeded();
          if (claimed === 'claimed') {
            job.shared = false;
            await jobs.create(job);
            await enqueue(key, requestId, job);
            logger.info('summary job queued', fields);
            break;
          }
        }
        // The record changed under this request (another one started or ended a run): again.
        if (attempt >= MAX_ATTEMPTS) {
          throw new SummaryInProgressError();
        }
        // Concurrent identical requests collide here: a short random pause spreads them.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));
        record = await records.get(key);
      }

      const charged = !job.shared;
      const last = await waitFor(key, waitMs, onProgress);
      // Settled here, or already by the worker with the very same outcome: no need to read it.
      const settled = last && (await settleJob(jobs, job, last));
      const current: Job = settled ? settled.job : (await refresh(job, last)).job;
      if (current.status === 'done' && current.result) {
        return { ready: true, response: current.result, job: viewOf(current, last), charged };
      }
      if (current.status === 'failed' && current.problem) throw storedError(current.problem);
      return { ready: false, job: viewOf(current, last), charged };
    },

    async job(user, id) {
      return (await refresh(await ownJob(user, id))).job;
    },

    async get(user, id) {
      const { job, record } = await refresh(await ownJob(user, id));
      return viewOf(job, record);
    },

    async list(user, page) {
      const { jobs: found, next } = await jobs.list(user.id, page);
      const items = await Promise.all(
        found.map(async (job) => {
          const { job: current, record } = await refresh(job);
          return viewOf(current, record);
        }),
      );
      return { items, next_cursor: next };
    },

    async cancel(user, id) {
      const { job, record } = await refresh(await ownJob(user, id));
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
      const { job: after } = await refresh((await jobs.get(job.id)) ?? job);
      return viewOf(after, undefined);
    },
  };

  /** Hands a new run to the workers; when the queue refuses, the run and its job fail. */
  async function enqueue(key: string, requestId: string, job: Job): Promise<void> {
    try {
      await deps.queue.send({ key, request_id: requestId });
    } catch (error) {
      // A refusal that names itself says why; anything else thrown on the way is the queue's.
      const problem = error instanceof HttpError ? error : new QueueUnavailableError(error);
      const failed = await records
        .fail(key, undefined, storeProblem(problem), 0)
        .catch(() => undefined);
      if (failed) await settleJob(jobs, job, failed).catch(() => undefined);
      throw problem;
    }
  }
}
