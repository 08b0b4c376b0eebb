// The job a summary request started, as the signed-in page shows it: its progress and Cancel
// while it runs (after a confirmation, as every destructive action asks), then how it ended
// when that is not a summary.
import { useEffect, useRef } from 'preact/hooks';
import type { Job } from '../api';
import { Confirm } from '../confirm';
import { jobTitle, progressOf } from '../jobs';

/** Whether the job has ended (done, failed or cancelled). */
export const ended = (job: Job) => job.status !== 'queued' && job.status !== 'running';

/** A progress bar, 0-100, its value also in words (read by screen readers). */
export function ProgressBar({
  label,
  percent,
  words,
}: {
  label: string;
  percent: number;
  words: string;
}) {
  return (
    <div
      class="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={words}
    >
      <div class="progress-done" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** A job under way (its progress, and Cancel), or how it ended without a summary. */
export function JobView({ job, onCancel }: { job: Job; onCancel: () => void }) {
  const { percent, words } = progressOf(job);
  const card = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const running = !ended(job);
  const title = jobTitle(job);

  // A job shown takes the focus, as a summary does.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [job.id]);

  // While it has the focus, it is in view with its bar and Cancel (on a phone they came below
  // the form, out of sight); the title, once known, may wrap onto more lines than the id did.
  useEffect(() => {
    const box = card.current?.getBoundingClientRect();
    const out = box !== undefined && (box.top < 0 || box.bottom > window.innerHeight);
    if (out && document.activeElement === heading.current) {
      card.current?.scrollIntoView({ block: 'center' });
    }
  }, [job.id, title]);

  // Cancel goes once pressed (or when the job ends): the focus it had stays with the job.
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!running && lost) heading.current?.focus();
  }, [running]);

  return (
    <section class="card job" aria-labelledby="job-title" ref={card}>
      <h2 id="job-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {running && (
        <>
          <ProgressBar label="Progress" percent={percent} words={words} />
          <p aria-live="polite">{words}</p>
          <Confirm
            id="job-cancel"
            keepId="job-keep"
            label="Cancel"
            question={`Cancel the summary of “${title}”? No more of it is made; you can ask for it again.`}
            confirmLabel="Cancel the summary"
            keepLabel="Keep it going"
            onConfirm={onCancel}
          />
        </>
      )}
      {job.status === 'cancelled' && (
        <p role="status">Cancelled: no more of this summary is made.</p>
      )}
      {job.status === 'failed' && (
        <p class="error" role="alert">
          {job.error?.detail ?? 'This summary failed.'}
        </p>
      )}
    </section>
  );
}
