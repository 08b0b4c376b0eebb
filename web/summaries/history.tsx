// The signed-in person's summaries (GET /summaries), newest first, each opening again. The job
// the page follows is shown as the page last read it, so cancelling or finishing it shows here at
// once, whatever the list (read from an index a moment behind, or answered late) says.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, type Job, type JobList } from '../api';
import { jobDetails, jobTitle, listedWith } from '../jobs';
import { dateTime } from '../times';

interface HistoryProps {
  token: string;
  /** Changes whenever the list may have changed (a summary started or ended). */
  version: number;
  /** The job the page follows, as it last read it. */
  current: Job | undefined;
  onOpen: (job: Job) => void;
  onSignedOut: (error: unknown) => void;
}

export function History({ token, version, current, onOpen, onSignedOut }: HistoryProps) {
  const [items, setItems] = useState<Job[]>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  // Lists asked for one after another may be answered out of order: only the latest counts.
  const latest = useRef(0);

  const load = async (cursor?: string) => {
    const asked = cursor ? latest.current : ++latest.current;
    try {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const { body } = await call<JobList>('GET', `summaries${query}`, { token });
      if (asked !== latest.current) return;
      setItems((shown) => (cursor ? [...(shown ?? []), ...body.items] : body.items));
      setNext(body.next_cursor);
      setError(undefined);
    } catch (failure) {
      if (failure instanceof ApiError) {
        if (asked === latest.current) setError(failure.problem.detail);
      } else onSignedOut(failure);
    }
  };

  useEffect(() => {
    void load();
  }, [version, token]);

  return (
    <section class="card history" aria-labelledby="history-title">
      <h2 id="history-title">Your summaries</h2>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {items?.length === 0 && !current && (
        <p>None yet: the summaries you ask for will be listed here.</p>
      )}
      <ul>
        {items &&
          listedWith(items, current).map((job) => (
            <li key={job.id}>
              <button type="button" class="link" onClick={() => onOpen(job)}>
                {jobTitle(job)}
              </button>
              <span class="when">
                {jobDetails(job)} ·{' '}
                <time dateTime={job.created_at}>{dateTime(job.created_at)}</time>
              </span>
            </li>
          ))}
      </ul>
      {next && (
        <button type="button" onClick={() => load(next)}>
          Show more
        </button>
      )}
    </section>
  );
}
