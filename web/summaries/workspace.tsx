// The signed-in page: the summary form, the job it starts (its progress, Cancel, then the
// summary and questions about its video), the history, the API keys and deleting the account.
// Every call that the API refuses with 401 signs the person out, keeping what they wrote in the
// form (session.ts keeps the draft). The job's card is in job.tsx; a playlist's or channel's link
// starts a collection instead, whose card is in ../collections/.
import { useEffect, useState } from 'preact/hooks';
import { ConnectedApps } from '../account/connected-apps';
import { DeleteAccount } from '../account/delete-account';
import { ApiKeys } from '../account/keys';
import { ApiError, call, type Job, jobIdFrom, type Problem, type Summary } from '../api';
import { CollectionCard } from '../collections/collection';
import {
  COLLECTION_LIMIT,
  type CollectionField,
  collectionFieldOf,
  isCollectionUrl,
} from '../collections/format';
import { collectionAsker, useCollection } from '../collections/use-collection';
import { watchUrl } from '../markdown';
import { fieldOf, messagesOf } from '../problems';
import { type Draft, saveDraft } from '../session';
import type { PageSettings } from '../settings';
import { Ask, videoAsker } from './ask';
import { type Errors, keptDraft, type RequestFields, readRequest, SummaryForm } from './form';
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

/**
 * How often the page asks how a job stands: every second while a person watches, so the bar
 * moves part by part (the API's Retry-After, up to 5 s, suits scripts; a GET is one small read).
 */
const POLL_MS = 1_000;

/** The form's errors for a problem: by the field it concerns, or by the action. */
function errorsFor(
  problem: Problem,
  fieldOfProblem: (problem: Problem) => CollectionField | undefined = fieldOf,
): Errors {
  const field = fieldOfProblem(problem);
  if (field === undefined) return { action: problem.detail };
  const messages = messagesOf(problem);
  // POST /collections names the link `url`.
  const message = messages[field] ?? (field === 'video_url' ? messages.url : undefined);
  return { [field]: message ?? problem.detail };
}

export function Workspace({ token, settings, onSignedOut, onAccountDeleted }: WorkspaceProps) {
  const [draft, setDraft] = useState<Draft>(() => keptDraft(settings));
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
  const following = useCollection(token, failed, () => setVersion((v) => v + 1));
  const collecting = isCollectionUrl(draft.video_url);

  const summarize = async (body: RequestFields) => {
    const answer = await call<Summary | Job>('POST', 'summarize', {
      token,
      // The job at once, unless the summary is ready: the page shows its progress.
      headers: { Prefer: 'respond-async' },
      body: { video_url: draft.video_url.trim(), ...body },
    });
    if (answer.status === 202) {
      setShown({ id: (answer.body as Job).id, job: answer.body as Job });
    } else {
      setShown({ id: jobIdFrom(answer.headers), summary: answer.body as Summary });
    }
    following.clear();
  };

  const collect = async (body: RequestFields) => {
    try {
      const limit = body.limit ?? COLLECTION_LIMIT.default;
      await following.start({ ...body, url: draft.video_url.trim(), limit });
      setShown(undefined);
    } catch (error) {
      // By the link, the Videos field or the button (a mix, a private playlist, the quota).
      if (error instanceof ApiError) setErrors(errorsFor(error.problem, collectionFieldOf));
      else throw error;
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    const request = readRequest(draft, collecting);
    if ('errors' in request) return setErrors(request.errors);
    setBusy(true);
    try {
      await (collecting ? collect(request.body) : summarize(request.body));
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

  /** A collection's video: its summary job, read and opened as the history opens one. */
  const openVideo = async ({ summary_id: id }: { summary_id: string | null }) => {
    if (!id) return;
    try {
      open((await call<Job>('GET', `summaries/${id}`, { token })).body);
    } catch (error) {
      failed(error);
    }
  };

  const summary = shown?.summary ?? shown?.job?.result ?? undefined;
  const { collection } = following;
  return (
    <>
      <SummaryForm
        draft={draft}
        onEdit={edit}
        errors={errors}
        busy={busy}
        collecting={collecting}
        models={settings.models}
        onSubmit={submit}
      />
      {collection && (
        <CollectionCard
          collection={collection}
          onCancel={following.cancel}
          onOpenVideo={openVideo}
        />
      )}
      {collection?.status === 'done' && (
        <Ask
          key={collection.id}
          about="collection"
          ask={collectionAsker(token, collection)}
          onSignedOut={onSignedOut}
        />
      )}
      {shown?.job && !shown.job.result && <JobView job={shown.job} onCancel={cancel} />}
      {summary && <SummaryView summary={summary} />}
      {summary && (
        <Ask
          // Another video, another conversation: what was asked about the last one goes.
          key={summary.metadata.video_id}
          about="video"
          models={{ settings, initial: summary.metadata.model }}
          ask={videoAsker(token, watchUrl(summary.metadata.video_id), shown?.job?.request.language)}
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
