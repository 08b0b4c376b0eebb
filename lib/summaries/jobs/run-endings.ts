// How a run ends, for the worker: with a problem (stored for its jobs and, for a
// verdict on the video, for identical requests a while; the quota unit given back when the
// failure was ours), and with the jobs that waited settled either way.
import type { HttpError } from '../../errors';
import { asHttpError, storeProblem } from '../../problems/codec';
import { givesUnitBack } from '../../store/quota';
import type { SummaryRecord } from '../store/records';
import { MAX_RECEIVES } from './delivery';
import { JobTimeoutError, SummaryInterruptedError } from './errors';
import { settleJob } from './outcome';
import type { SummaryWorkerDeps } from './worker';

/** How long a verdict on the video (404, 422) is given to new requests without asking again. */
const VERDICT_REUSE_SECONDS = 60;

/** The ends of runs, over the worker's collaborators. */
export function createRunEndings(
  deps: Pick<SummaryWorkerDeps, 'records' | 'jobs' | 'quota' | 'logger' | 'onSettled'>,
) {
  const { records, logger } = deps;

  /** Settles the jobs that waited for a run that ended (a job that cannot be written reads its
   * outcome from the record later). */
  async function settleJobs(record: SummaryRecord): Promise<void> {
    await Promise.all(
      record.jobs.map(async (id) => {
        try {
          const job = await deps.jobs.get(id);
          if (!job) return;
          await settleJob(deps.jobs, job, record);
          // Whoever wrote the outcome, the collection the job is a video of hears of it.
          if (job.collection !== undefined) await deps.onSettled?.(job);
        } catch (error) {
          logger.warn('could not settle a job; it reads its outcome later', {
            job_id: id,
            error: String(error),
          });
        }
      }),
    );
  }

  /**
   * Ends a run with a problem. A failure of ours or of the model gives the unit back; a lookup
   * YouTube answered keeps it spent, whatever the answer (givesUnitBack).
   */
  async function fail(key: string, owner: string, error: HttpError) {
    const verdict = error.status === 404 || error.status === 422;
    const ended = await records.fail(
      key,
      owner,
      storeProblem(error),
      verdict ? VERDICT_REUSE_SECONDS : 0,
    );
    // The charge as it stands now, not as the run found it: a user deleted meanwhile (their
    // jobs forgotten) is no longer charged, and gets nothing back.
    if (givesUnitBack(error) && ended.chargedTo) {
      const { userId, day } = ended.chargedTo;
      await deps.quota.release(userId, day).catch((releaseError: unknown) => {
        logger.warn('could not give back a quota unit', { error: String(releaseError) });
      });
    }
    await settleJobs(ended);
  }

  /**
   * Ends a run the store kept interrupting, on the message's last delivery: after it the message
   * goes to the dead-letter queue, and its jobs (and every identical request, which would join the
   * run) would wait for a run nobody makes. Best-effort, as the store may still be down: whether
   * the failure was written.
   */
  async function failInterrupted(key: string, owner: string, record: SummaryRecord) {
    const interrupted = new SummaryInterruptedError(
      `The summary could not be made: the store was unavailable on each of its ${MAX_RECEIVES} attempts. Ask for it again.`,
      60,
    );
    try {
      await fail(key, owner, interrupted);
      logger.error('summary run failed: the store was unavailable on its last delivery', {
        video_id: record.work.videoId,
        model: record.work.model,
      });
      return true;
    } catch (error) {
      logger.error('summary run left unfinished: the store is unavailable on its last delivery', {
        error: String(error),
      });
      return false;
    }
  }

  return { settleJobs, fail, failInterrupted };
}

/**
 * What a run's failure tells its jobs, as a direct call would have answered (the codec's
 * answer), except that a failure the codec knows nothing of, once the budget ended, is the
 * budget's: 504 job-timeout.
 */
export function failureOf(error: unknown, budget: AbortSignal): HttpError {
  const answer = asHttpError(error);
  const unknown = answer !== error && answer.status === 500;
  return unknown && budget.aborted ? new JobTimeoutError(error) : answer;
}
