// The summary form's state: the draft (kept across a sign-in and a reload), its one error, and
// its submission, which starts a summary (POST /summarize) or, for a playlist's or channel's
// link, a collection (POST /collections).
import { useState } from 'preact/hooks';
import { ApiError, call, type Job, jobIdFrom, type Problem, type Summary } from '../api';
import {
  COLLECTION_LIMIT,
  type CollectionField,
  collectionFieldOf,
  isCollectionUrl,
} from '../collections/format';
import type { CollectionRequest } from '../collections/use-collection';
import { fieldOf, messagesOf } from '../problems';
import { type Draft, saveDraft } from '../session';
import type { PageSettings } from '../settings';
import { type Errors, keptDraft, type RequestFields, readRequest } from './form';
import type { Shown } from './use-shown';

/** The form's error for a problem: by the field it concerns, or by the action. */
export function errorsFor(
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

interface RequestActions {
  /** A summary started (its job) or answered at once. */
  onSummary: (shown: Shown) => void;
  /** Starts a collection. @throws ApiError for the API's refusal. */
  startCollection: (request: CollectionRequest) => Promise<void>;
  /** Any other failure (a refused token). */
  onFailure: (error: unknown) => void;
}

export function useRequest(token: string, settings: PageSettings, actions: RequestActions) {
  const [draft, setDraft] = useState<Draft>(() => keptDraft(settings));
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const collecting = isCollectionUrl(draft.video_url);

  // Editing takes the form's error away: the person has moved on.
  const edit = (field: keyof Draft) => (value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    saveDraft(next);
    setErrors({});
  };

  const summarize = async (body: RequestFields) => {
    const answer = await call<Summary | Job>('POST', 'summarize', {
      token,
      // The job at once, unless the summary is ready: the page shows its progress.
      headers: { Prefer: 'respond-async' },
      body: { video_url: draft.video_url.trim(), ...body },
    });
    if (answer.status === 202) {
      const job = answer.body as Job;
      actions.onSummary({ id: job.id, job });
    } else {
      actions.onSummary({ id: jobIdFrom(answer.headers), summary: answer.body as Summary });
    }
  };

  const collect = async (body: RequestFields) => {
    const limit = body.limit ?? COLLECTION_LIMIT.default;
    try {
      await actions.startCollection({ ...body, url: draft.video_url.trim(), limit });
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
    } catch (error) {
      if (error instanceof ApiError) setErrors(errorsFor(error.problem));
      else actions.onFailure(error);
    } finally {
      setBusy(false);
    }
  };

  /** The error a problem of the shown job (or none) puts on the form. */
  const showProblem = (problem: Problem | undefined) =>
    setErrors(problem ? errorsFor(problem) : {});

  return { draft, edit, errors, busy, collecting, submit, showProblem };
}
