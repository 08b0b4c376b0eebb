// The submit path of POST /summarize. A request becomes a job, a user's handle on the record of
// its summary: served at once from a finished record (the cache), attached to a run already
// under way (identical requests make their summary once, whoever sends them), or a new run
// handed to the workers through the queue. The request then waits for the run, within its
// wait; a summary not ready by then is answered as the job.
import type { User } from '../accounts/users/store';
import { HttpError } from '../errors';
import { resolveModel } from '../models/catalog';
import { storedError, storeProblem } from '../problems/codec';
import { parseVideoId } from '../youtube/url';
import { QueueUnavailableError, SummaryInProgressError } from './jobs/errors';
import { viewOf } from './jobs/job-view';
import { answerFor, recordProgress, refreshJob, settleJob } from './jobs/outcome';
import { plannerFor, SummaryLengthError } from './llm/plan';
import type { SummarizeRequest, SummarizeResponse } from './schemas';
import type { Submitted, SummaryService, SummaryServiceDeps } from './service';
import { type Job, type JobProgress, newJobId } from './store/jobs';
import { reusable, type SummaryRecord, summaryKey, type Work } from './store/records';

/** How often a request tries to start or join a run while the record keeps changing. */
const MAX_ATTEMPTS = 10;

/** How often a waiting request looks at its record: soon at first, then every second. */
const POLL_FIRST_MS = 50;
const POLL_MAX_MS = 1_000;

type SubmitOptions = Parameters<SummaryService['submit']>[2];

/** SummaryService.submit: the request checked, its job started or joined, then waited for. */
export async function submitSummary(
  deps: SummaryServiceDeps,
  user: Pick<User, 'id'>,
  request: SummarizeRequest,
  { waitMs, requestId, onProgress, prepaid, collection }: SubmitOptions,
): Promise<Submitted> {
  const { job, work } = newJob(deps, user, request, requestId, collection);
  const served = await startOrJoin(deps, user, job, work, prepaid);
  if (served) return served;
  const charged = !job.shared;
  const last = await waitForRun(deps, job.key, waitMs, onProgress);
  // Settled here, or already by the worker with the very same outcome: no need to read it.
  const settled = last && (await settleJob(deps.jobs, job, last));
  const current: Job = settled ? settled.job : (await refreshJob(deps, job, last)).job;
  if (current.status === 'done' && current.result) {
    return { ready: true, response: current.result, job: viewOf(current, last), charged };
  }
  if (current.status === 'failed' && current.problem) throw storedError(current.problem);
  return { ready: false, job: viewOf(current, last), charged };
}

/**
 * The job of a request, not yet stored: everything is checked before any I/O, so a bad URL,
 * model or length costs no request anywhere, no job and no quota unit.
 * @throws HttpError 422 (bad URL, unknown model, a summary_length the model cannot make).
 */
export function newJob(
  deps: Pick<SummaryServiceDeps, 'catalog' | 'defaultModel'>,
  user: Pick<User, 'id'>,
  request: SummarizeRequest,
  requestId: string,
  collection: string | undefined,
): { job: Job; work: Work } {
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
  const now = Date.now();
  const job: Job = {
    id: newJobId(),
    userId: user.id,
    key: summaryKey(work),
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
  return { job, work };
}

/**
 * Serves the job from a finished record (the answer, returned), or stores it attached to a run
 * under way or to a new run it starts and queues (undefined: the job is to be waited for).
 * @throws HttpError 429 (quota), 503 (store or queue down), a verdict on the video found a
 * moment ago, or SummaryInProgressError when the record keeps changing under the request.
 */
export async function startOrJoin(
  deps: SummaryServiceDeps,
  user: Pick<User, 'id'>,
  job: Job,
  work: Work,
  prepaid: SubmitOptions['prepaid'],
): Promise<Submitted | undefined> {
  const { records, jobs, logger } = deps;
  const key = job.key;
  let record = await records.get(key);
  const fields = { video_id: work.videoId, model: work.model, job_id: job.id };
  for (let attempt = 0; ; attempt++) {
    const use = reusable(record);
    if (use === 'done' && record?.value) return served(deps, job, record, record.value, fields);
    // A verdict on the video found a moment ago is every identical request's answer.
    if (use === 'failed' && record?.problem) throw storedError(record.problem);
    if (use === 'running' && (await records.attach(key, job.id))) {
      await jobs.create(job);
      logger.info('summary job waits for a run under way', fields);
      return undefined;
    }
    if (use === 'free') {
      // A new run: its job's user pays for it, in the same write that starts it.
      const charge = prepaid
        ? { day: prepaid.day, exceeded: () => deps.quota.reservation(user.id).exceeded() }
        : deps.quota.reservation(user.id);
      const claimed = await records.claim(key, {
        work,
        jobId: job.id,
        requestId: job.requestId,
        charge,
        userId: user.id,
      });
      if (claimed === 'quota') throw charge.exceeded();
      if (claimed === 'claimed') {
        job.shared = false;
        await jobs.create(job);
        await enqueueRun(deps, key, job.requestId, job);
        logger.info('summary job queued', fields);
        return undefined;
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
}

/** A job served from its record's finished summary: stored done at once, and answered. */
async function served(
  { jobs, logger }: SummaryServiceDeps,
  job: Job,
  record: SummaryRecord,
  value: SummarizeResponse,
  fields: Record<string, string>,
): Promise<Submitted> {
  const response = answerFor(value, job.request, { since: job.createdAt });
  const done: Job = {
    ...job,
    status: 'done',
    result: response,
    progress: { stage: 'done', parts_done: record.partsTotal, parts_total: record.partsTotal },
  };
  await jobs.create(done);
  logger.info('summary served from cache', fields);
  return { ready: true, response, job: viewOf(done, undefined), charged: false };
}

/** Waits until the record's run ends or `waitMs` passes; the record as last read. */
export async function waitForRun(
  { records, queue }: Pick<SummaryServiceDeps, 'records' | 'queue'>,
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
      queue.settled?.(key, wake.signal) ?? new Promise(() => undefined),
    ]);
    wake.abort();
    pause = Math.min(POLL_MAX_MS, pause * 2);
  }
}

/** Hands a new run to the workers; when the queue refuses, the run and its job fail. */
export async function enqueueRun(
  { records, jobs, queue }: Pick<SummaryServiceDeps, 'records' | 'jobs' | 'queue'>,
  key: string,
  requestId: string,
  job: Job,
): Promise<void> {
  try {
    await queue.send({ key, request_id: requestId });
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
