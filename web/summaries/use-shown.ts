// The summary shown under the form: a job (followed until it ends, cancelled on request) or a
// summary the API answered at once; opened from the form, the history, a collection's video or
// the page's address.
import { useEffect, useState } from 'preact/hooks';
import { call, type Job, type Problem, type Summary } from '../api';
import { ended } from './job';

/** What is shown under the form: a job (running or ended), or a summary answered at once. */
export interface Shown {
  id: string | undefined;
  job?: Job;
  summary?: Summary;
}

/**
 * How often the page asks how a job stands: every second while a person watches, so the bar
 * moves part by part (the API's Retry-After, up to 5 s, suits scripts; a GET is one small read).
 */
const POLL_MS = 1_000;

interface ShownEvents {
  /** Any failure of a read or a cancellation (a problem, a refused token). */
  onFailure: (error: unknown) => void;
  /** A job ended, or was cancelled: the history may have changed. */
  onChanged: () => void;
  /** A job ended with a problem, or one opened had. */
  onProblem: (problem: Problem | undefined) => void;
}

export function useShown(token: string, { onFailure, onChanged, onProblem }: ShownEvents) {
  const [shown, setShown] = useState<Shown>();

  // Follows the shown job until it ends.
  useEffect(() => {
    const job = shown?.job;
    if (!job || ended(job)) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await call<Job>('GET', `summaries/${job.id}`, {
          token,
          signal: controller.signal,
        });
        setShown((current) =>
          current?.id === job.id ? { id: job.id, job: answer.body } : current,
        );
        if (ended(answer.body)) {
          onChanged();
          if (answer.body.error) onProblem(answer.body.error);
        }
      } catch (error) {
        if (!controller.signal.aborted) onFailure(error);
      }
    }, POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [shown, token]);

  const cancel = async () => {
    const job = shown?.job;
    if (!job) return;
    try {
      const answer = await call<Job>('DELETE', `summaries/${job.id}`, { token });
      // 200: cancelled (its body is the job); 204: it had just finished, and is removed.
      if (answer.status === 200) setShown({ id: job.id, job: answer.body });
      else setShown(undefined);
      onChanged();
    } catch (error) {
      onFailure(error);
    }
  };

  const openJob = (job: Job) => {
    onProblem(job.error ?? undefined);
    setShown({ id: job.id, job });
  };

  /** A summary by its job's id (the history's, a collection video's, the address's). */
  const openId = async (id: string) => {
    try {
      openJob((await call<Job>('GET', `summaries/${id}`, { token })).body);
      return true;
    } catch (error) {
      onFailure(error);
      return false;
    }
  };

  return { shown, show: setShown, cancel, openJob, openId };
}
