// Makes the summary of one record: what a worker does with a queue message (deployed, the
// worker Lambda; locally, the host's in-process queue). It takes the record's lease (one worker
// per run, renewed while it works), fetches the video (or reuses a fetched one), runs the
// chosen summarizer with the record's checkpoints (a resumed run asks the model again only for
// the calls no earlier run finished), stores the outcome, and settles the jobs that waited.
import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '../../errors';
import type { Logger } from '../../logger';
import { type Catalog, type CatalogEntry, resolveModel } from '../../models/catalog';
import type { Cache } from '../../store/cache';
import type { Quota } from '../../store/quota';
import { TranscriptionPendingError, transcriptionTimeout } from '../../transcription/errors';
import type { CaptionlessHandler } from '../../transcription/reuse';
import { createVideoSource } from '../../transcripts/videos';
import type { YouTubeClient } from '../../youtube/client';
import type { Video } from '../../youtube/types';
import { responseOf } from '../response';
import type { Job, JobStore } from '../store/jobs';
import { LeaseLostError, type RecordStore, type SummaryRecord } from '../store/records';
import type { JobHooks, Summarizer } from '../types';
import type { WorkMessage } from './delivery';
import { RunCrashedError } from './errors';
import { type RunControl, runControl, stoppedBy } from './run-control';
import { createRunEndings, failureOf } from './run-endings';

export interface SummaryWorkerDeps {
  records: RecordStore;
  jobs: JobStore;
  /** Fetched videos: another length or model for the same video needs no YouTube call. */
  videos: Cache<Video>;
  quota: Quota;
  /** Resolved on first use (the YouTube client is only loaded by workers that need it). */
  youtube: () => Promise<Pick<YouTubeClient, 'lookUpVideo'>>;
  /** What becomes of a video without usable captions: its transcription, or a refusal. */
  captionless: CaptionlessHandler;
  catalog: Catalog;
  /** The summarizer of a catalog entry, loaded on first use (the offline one holds a model). */
  summarizer: (model: CatalogEntry) => Promise<Summarizer>;
  logger: Logger;
  /** How long a finished summary is reused (SUMMARY_CACHE_TTL_SECONDS). */
  reuseSeconds: number;
  /** How often the lease is renewed (a third of its length). */
  renewEveryMs: number;
  /** Stops every run at once (the local host shutting down): they give their lease back. */
  shutdown?: AbortSignal;
  /** Told of each settled job of a collection (its driver is woken). */
  onSettled?: (job: Job) => Promise<void>;
}

/**
 * How a message was handled: the run ended ('done', 'failed'), stopped without ending
 * ('stopped': cancelled, taken over, or shut down), was not this worker's to make ('busy': a
 * live worker has it; 'gone': nothing to make), or should be tried again later ('retry': the
 * store could not be written).
 */
export type RunOutcome = 'done' | 'failed' | 'stopped' | 'busy' | 'gone' | 'retry';

/** What a run may spend: its budget's signal and end, and whether its message comes again. */
export interface RunBudget {
  signal: AbortSignal;
  /** When the budget ends (epoch ms). */
  endsAt: number;
  /** The message's last delivery (MAX_RECEIVES): a run the store interrupts is failed, not handed
   * back to a dead-letter queue that would leave its jobs waiting. */
  lastDelivery?: boolean;
}

/** A run whose worker vanished this often is failed rather than tried again. */
export const MAX_CRASHES = 3;

/** The summary worker over its collaborators (all injectable for tests). */
export function createSummaryWorker(deps: SummaryWorkerDeps) {
  const worker: WorkerParts = {
    deps,
    fetchVideo: createVideoSource(deps),
    endings: createRunEndings(deps),
  };
  /**
   * Makes the summary a message names, within its budget (a signal, and when it ends). `force`
   * takes a lease even from a live holder (the local host resuming after a crash, when no other
   * process can hold one).
   */
  const run = (message: WorkMessage, budget: RunBudget, force = false): Promise<RunOutcome> =>
    runMessage(worker, message, budget, force);
  return { run };
}

/** What a worker's runs share: its collaborators, its video source and its run endings. */
export interface WorkerParts {
  deps: SummaryWorkerDeps;
  fetchVideo: ReturnType<typeof createVideoSource>;
  endings: ReturnType<typeof createRunEndings>;
}

/** One run under its lease: the record it took, and what it logs every line with. */
interface LeasedRun extends WorkerParts {
  key: string;
  owner: string;
  record: SummaryRecord;
  fields: { video_id: string; model: string; length: number };
}

/** SummaryWorker.run: the lease taken, then the summary made, or why not. */
export async function runMessage(
  worker: WorkerParts,
  message: WorkMessage,
  { signal: budget, endsAt, lastDelivery = false }: RunBudget,
  force = false,
): Promise<RunOutcome> {
  const { records, logger } = worker.deps;
  const { key } = message;
  const owner = randomUUID();
  const taken = await records.takeLease(key, owner, force);
  if (taken === 'busy' || taken === 'gone') {
    logger.info('summary run not taken', { outcome: taken });
    return taken;
  }
  const record = taken;
  const { work } = record;
  const fields = { video_id: work.videoId, model: work.model, length: work.length };
  const run: LeasedRun = { ...worker, key, owner, record, fields };
  if (record.crashes >= MAX_CRASHES) {
    logger.error('summary run failed: its workers stopped without a word too often', {
      ...fields,
      crashes: record.crashes,
    });
    await worker.endings.fail(key, owner, new RunCrashedError(record.crashes));
    return 'failed';
  }
  const control = runControl(worker.deps, key, owner, budget);
  try {
    return await makeSummary(run, control, endsAt);
  } catch (error) {
    return await endedBy(run, control, error, { budget, lastDelivery });
  } finally {
    control.dispose();
  }
}

/**
 * What the summarizer is told of its job: its checkpoints, its progress (with the video's title
 * once `seen.title` knows it, so that the jobs that wait show it instead of their link), and a
 * stop before every call.
 */
function jobHooks(run: LeasedRun, control: RunControl, seen: { title?: string }): JobHooks {
  const { records, logger } = run.deps;
  const { key, owner, fields } = run;
  const asStopped = stoppedBy(control);
  const checkpoints = run.record.checkpoints ?? new Map();
  return {
    recall: (callKey) => checkpoints.get(callKey),
    remember: async (callKey, result, part) => {
      const kept = await records.checkpoint(key, owner, callKey, result, part).catch(asStopped);
      if (kept === 'too-large') logger.warn('summary record full: no more checkpoints', fields);
    },
    progress: async (stage, partsTotal, partsDone) => {
      const { title } = seen;
      await records
        .progress(key, owner, { stage, partsTotal, partsDone, ...(title ? { title } : {}) })
        .catch(asStopped);
      logger.info('summary progress', {
        ...fields,
        stage,
        parts_done: partsDone,
        parts_total: partsTotal,
      });
    },
    beforeCall: async () => {
      control.signal.throwIfAborted();
      const wanted = await records.stillWanted(key, owner);
      if (wanted !== 'ok') control.stopWith(wanted);
      control.signal.throwIfAborted();
    },
  };
}

/** The video fetched (or transcribed), summarized, stored, and its jobs settled. */
async function makeSummary(run: LeasedRun, control: RunControl, endsAt: number): Promise<'done'> {
  const { deps, key, owner, record, fields } = run;
  const { records, logger } = deps;
  const { work } = record;
  const seen: { title?: string } = {};
  const job = jobHooks(run, control, seen);
  const startedAt = record.createdAt || Date.now();
  logger.info('summary run started', {
    ...fields,
    checkpoints: (record.checkpoints ?? new Map()).size,
    crashes: record.crashes,
  });
  const model = resolveModel(deps.catalog, work.model);
  const video = await run.fetchVideo({
    videoId: work.videoId,
    language: work.language,
    signal: control.signal,
    deadlineAt: endsAt,
    // A video without captions is transcribed on the account of the job that started the run.
    payer: record.chargedTo?.userId,
    // Its parts as they are transcribed ("Transcribing part 3 of 18").
    onTranscribing: async (parts) => {
      const { partsDone = 0, partsTotal = 0 } = parts ?? {};
      await records
        .progress(key, owner, { stage: 'transcribing', partsTotal, partsDone })
        .catch(stoppedBy(control));
      logger.info('summary progress', {
        ...fields,
        stage: 'transcribing',
        parts_done: partsDone,
        parts_total: partsTotal,
      });
    },
  });
  seen.title = video.metadata.title;
  const summarizer = await deps.summarizer(model);
  // The offline model makes its one part in milliseconds: no progress to show on the way.
  const result = await summarizer.summarize({
    transcript: video.transcript,
    metadata: video.metadata,
    targetWords: work.length,
    keyPoints: true,
    signal: control.signal,
    job,
    ...(work.summaryLanguage === undefined ? {} : { summaryLanguage: work.summaryLanguage }),
  });
  const response = responseOf(work, model, video, result, startedAt);
  const ended = await records.complete(key, owner, response, deps.reuseSeconds);
  logger.info('summary run done', {
    ...fields,
    chunks: result.chunks,
    chapters: result.chapters.list.length,
    chapters_source: result.chapters.source,
    input_tokens: result.inputTokens,
    output_tokens: result.outputTokens,
    elapsed_ms: response.metadata.elapsed_ms,
  });
  await run.endings.settleJobs(ended);
  return 'done';
}

/**
 * What a run that threw comes to: stopped (its lease given back unless taken over), handed to
 * the next delivery (a transcription that outlives it, the store down), or failed.
 */
async function endedBy(
  run: LeasedRun,
  control: RunControl,
  error: unknown,
  { budget, lastDelivery }: { budget: AbortSignal; lastDelivery: boolean },
): Promise<RunOutcome> {
  const { deps, key, owner, record, fields, endings } = run;
  const { records, logger } = deps;
  const stopped = control.stopped();
  if (stopped || error instanceof LeaseLostError) {
    const why = stopped?.why ?? 'lost';
    // A cancelled or interrupted run gives its lease back for whoever asks again (its
    // checkpoints stay); one taken over has nothing to give back.
    if (why !== 'lost') await records.release(key, owner).catch(() => undefined);
    logger.info('summary run stopped', { ...fields, why });
    return 'stopped';
  }
  if (error instanceof TranscriptionPendingError) {
    // A transcription outlives this run: the next delivery picks it up by its job's name.
    if (lastDelivery) {
      await endings.fail(key, owner, transcriptionTimeout()).catch(() => undefined);
      return 'failed';
    }
    await records.release(key, owner).catch(() => undefined);
    logger.info('summary run hands its transcription over to the next delivery', {
      ...fields,
      why: error.message,
    });
    return 'retry';
  }
  if (error instanceof ServiceUnavailableError && error.type === 'storage-unavailable') {
    if (lastDelivery && (await endings.failInterrupted(key, owner, record))) return 'failed';
    logger.warn('summary run interrupted: the store is unavailable; it will be tried again', {
      ...fields,
      error,
    });
    return 'retry';
  }
  const problem = failureOf(error, budget);
  if (problem.status >= 500) logger.error('summary run failed', { ...fields, error });
  else logger.info('summary run refused', { ...fields, problem: problem.type });
  await endings.fail(key, owner, problem).catch(async (failError: unknown) => {
    if (failError instanceof LeaseLostError) return;
    throw failError;
  });
  return 'failed';
}

export type SummaryWorker = ReturnType<typeof createSummaryWorker>;
