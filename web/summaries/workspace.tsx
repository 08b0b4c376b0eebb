// The signed-in page: the summary form, the job it starts (its progress, Cancel, then the
// summary and questions about its video), the history, the API keys and deleting the account.
// Every call that the API refuses with 401 signs the person out, keeping what they wrote in the
// form (session.ts keeps the draft). The job's card is in job.tsx.
import { useEffect, useState } from 'preact/hooks';
import { SUMMARY_LENGTH } from '../../lib/summaries/limits';
import { ConnectedApps } from '../account/connected-apps';
import { DeleteAccount } from '../account/delete-account';
import { ApiKeys } from '../account/keys';
import { ApiError, call, type Job, jobIdFrom, type Problem, type Summary } from '../api';
import { ActionError, ModelField, TextField } from '../field';
import { fieldOf, messagesOf, type SummaryField, watchUrl } from '../format';
import { type Draft, loadDraft, saveDraft } from '../session';
import type { PageSettings } from '../settings';
import { Ask } from './ask';
import { History } from './history';
import { ended, JobView } from './job';
import { SummaryView } from './summary';

interface WorkspaceProps {
  token: string;
  settings: PageSettings;
  /** A call was refused with 401 (or failed unexpectedly): back to Sign in. */
  onSignedOut: (error: unknown) => void;
  /** The person deleted their account. */
  onAccountDeleted: () => void;
}

/** What is shown under the form: a job (running or ended), or a summary answered at once. */
interface Shown {
  id: string | undefined;
  job?: Job;
  summary?: Summary;
}

type Errors = Partial<Record<SummaryField | 'action', string>>;

/**
 * How often the page asks how a job stands: every second while a person watches, so the bar
 * moves part by part (the API's Retry-After, up to 5 s, suits scripts; a GET is one small read).
 */
const POLL_MS = 1_000;

/** The form's errors for a problem: by the field it concerns, or by the action. */
function errorsFor(problem: Problem): Errors {
  const field = fieldOf(problem);
  if (field === undefined) return { action: problem.detail };
  return { [field]: messagesOf(problem)[field] ?? problem.detail };
}

export function Workspace({ token, settings, onSignedOut, onAccountDeleted }: WorkspaceProps) {
  const [draft, setDraft] = useState<Draft>(() => {
    const kept = loadDraft();
    return {
      video_url: kept.video_url ?? '',
      summary_length: kept.summary_length ?? String(SUMMARY_LENGTH.default),
      used_model: settings.models.includes(kept.used_model ?? '')
        ? (kept.used_model as string)
        : settings.defaultModel,
      summary_language: kept.summary_language ?? '',
    };
  });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<Shown>();
  const [version, setVersion] = useState(0);

  const edit = (field: keyof Draft) => (value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    saveDraft(next);
  };

  const failed = (error: unknown) => {
    if (error instanceof ApiError) setErrors(errorsFor(error.problem));
    else onSignedOut(error);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    const length = draft.summary_length.trim();
    if (length !== '' && !/^\d+$/.test(length)) {
      setErrors({
        summary_length: `Enter a whole number of words, ${SUMMARY_LENGTH.min} to ${SUMMARY_LENGTH.max}.`,
      });
      return;
    }
    setBusy(true);
    try {
      const language = draft.summary_language.trim();
      const answer = await call<Summary | Job>('POST', 'summarize', {
        token,
        // The job at once, unless the summary is ready: the page shows its progress.
        headers: { Prefer: 'respond-async' },
        body: {
          video_url: draft.video_url.trim(),
          ...(length === '' ? {} : { summary_length: Number(length) }),
          ...(draft.used_model ? { used_model: draft.used_model } : {}),
          ...(language === '' ? {} : { summary_language: language }),
        },
      });
      if (answer.status === 202) {
        setShown({ id: (answer.body as Job).id, job: answer.body as Job });
      } else {
        setShown({ id: jobIdFrom(answer.headers), summary: answer.body as Summary });
      }
      setVersion((v) => v + 1);
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };

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
          setVersion((v) => v + 1);
          if (answer.body.error) setErrors(errorsFor(answer.body.error));
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        failed(error);
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
      setVersion((v) => v + 1);
    } catch (error) {
      failed(error);
    }
  };

  const open = (job: Job) => {
    setErrors(job.error ? errorsFor(job.error) : {});
    setShown({ id: job.id, job });
  };

  const summary = shown?.summary ?? shown?.job?.result ?? undefined;
  return (
    <>
      <form class="card" aria-labelledby="summarize-title" onSubmit={submit} noValidate>
        <h2 id="summarize-title">Summarize a video</h2>
        <TextField
          id="video-url"
          label="Video URL"
          error={errors.video_url}
          value={draft.video_url}
          onValue={edit('video_url')}
          type="url"
          inputMode="url"
          placeholder="https://www.youtube.com/watch?v=…"
          required
        />
        <div class="row">
          <TextField
            id="summary-length"
            label="Length (words)"
            error={errors.summary_length}
            value={draft.summary_length}
            onValue={edit('summary_length')}
            type="number"
            inputMode="numeric"
            min={SUMMARY_LENGTH.min}
            max={SUMMARY_LENGTH.max}
            step={25}
          />
          <ModelField
            id="used-model"
            label="Model"
            models={settings.models}
            value={draft.used_model}
            onValue={edit('used_model')}
            error={errors.used_model}
          />
          <TextField
            id="summary-language"
            label="Summary language"
            error={errors.summary_language}
            hint="Optional, e.g. de or pt-BR; the video's by default."
            value={draft.summary_language}
            onValue={edit('summary_language')}
            autocomplete="off"
          />
        </div>
        <button type="submit" disabled={busy}>
          Summarize
        </button>
        <ActionError message={errors.action} />
      </form>
      {shown?.job && !shown.job.result && <JobView job={shown.job} onCancel={cancel} />}
      {summary && <SummaryView summary={summary} />}
      {summary && (
        <Ask
          // Another video, another conversation: what was asked about the last one goes.
          key={summary.metadata.video_id}
          token={token}
          settings={settings}
          videoUrl={watchUrl(summary.metadata.video_id)}
          language={shown?.job?.request.language}
          model={summary.metadata.model}
          onSignedOut={onSignedOut}
        />
      )}
      <History
        token={token}
        version={version}
        current={shown?.job}
        onOpen={open}
        onSignedOut={onSignedOut}
      />
      <ApiKeys token={token} onSignedOut={onSignedOut} />
      <ConnectedApps token={token} onSignedOut={onSignedOut} />
      <DeleteAccount token={token} onDeleted={onAccountDeleted} onSignedOut={onSignedOut} />
    </>
  );
}
