// The consent screen of an app connecting with OAuth (GET /oauth/authorize sends the person here,
// `?authorize=<request>`): which app, what it may do (each scope Allow grants), where the answer
// goes, and Allow or Deny. The answer is
// sent with the page's access token (which no other site has) and the browser then goes where
// the API says: the app's redirect URI, with a code or with access_denied.
import { useEffect, useState } from 'preact/hooks';
import type {
  authorizationRequestViewSchema,
  decisionResponseSchema,
} from '../../lib/oauth/schemas';
import type * as z from '../../lib/schema';
import { ApiError, call } from '../api';
import { ActionError } from '../field';

type PendingRequest = z.output<typeof authorizationRequestViewSchema>;
type Answer = z.output<typeof decisionResponseSchema>;

/** The pending request the page was opened for, if any (`?authorize=`). */
export function authorizationRequestId(search: string): string | undefined {
  const id = new URLSearchParams(search).get('authorize');
  return id && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : undefined;
}

interface ConsentProps {
  id: string;
  token: string;
  username: string;
  onSignedOut: (error: unknown) => void;
}

/** The request the page was opened for, and the person's answer to it. */
function useConsent({ id, token, onSignedOut }: ConsentProps) {
  const [request, setRequest] = useState<PendingRequest>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const path = `oauth/requests/${encodeURIComponent(id)}`;

  const failed = (error: unknown) => {
    if (error instanceof ApiError) setProblem(error.problem.detail);
    else onSignedOut(error);
  };

  useEffect(() => {
    call<PendingRequest>('GET', path, { token }).then(({ body }) => setRequest(body), failed);
  }, [path, token]);

  useEffect(() => {
    if (request) document.getElementById('consent-title')?.focus();
  }, [request]);

  const answer = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    try {
      const { body } = await call<Answer>('POST', path, { token, body: { decision } });
      // To the app: its own page takes it from here.
      window.location.assign(body.redirect_to);
    } catch (error) {
      setBusy(false);
      failed(error);
    }
  };
  return { request, problem, busy, answer };
}

export function Consent(props: ConsentProps) {
  const { request, problem, busy, answer } = useConsent(props);
  if (!request) {
    return (
      <section class="card consent" aria-labelledby="consent-title" aria-busy={!problem}>
        <h2 id="consent-title">Connect an app</h2>
        {problem ? (
          <>
            <ActionError message={problem} />
            <p>
              <a href="./">Go to tubesum</a>
            </p>
          </>
        ) : (
          <p>Loading the request…</p>
        )}
      </section>
    );
  }
  return (
    <Question
      request={request}
      username={props.username}
      busy={busy}
      problem={problem}
      onAnswer={answer}
    />
  );
}

interface QuestionProps {
  request: PendingRequest;
  username: string;
  busy: boolean;
  problem: string | undefined;
  onAnswer: (decision: 'allow' | 'deny') => void;
}

/** Which app, what it may do, where the answer goes; Allow (the primary action) or Deny. */
function Question({ request, username, busy, problem, onAnswer }: QuestionProps) {
  const name = request.client_name ?? 'An app that gave no name';
  return (
    <section class="card consent" aria-labelledby="consent-title">
      <h2 id="consent-title" tabIndex={-1}>
        Connect “{name}” to your account?
      </h2>
      <p>
        <strong>{name}</strong> asks to use tubesum as <strong>{username}</strong>. It may:
      </p>
      <ul class="scopes" aria-label="What it may do">
        {request.scopes.map(({ scope, description }) => (
          <li key={scope}>
            {description} <code>{scope}</code>
          </li>
        ))}
      </ul>
      <p>It does not get your password, your API keys or your other apps.</p>
      <p>
        Your answer sends you to <strong class="host">{request.redirect_host}</strong>. Allow only
        an app you are connecting yourself, right now.
      </p>
      <div class="actions">
        <button
          type="button"
          id="consent-allow"
          class="primary"
          disabled={busy}
          onClick={() => onAnswer('allow')}
        >
          Allow
        </button>
        <button
          type="button"
          id="consent-deny"
          class="secondary"
          disabled={busy}
          onClick={() => onAnswer('deny')}
        >
          Deny
        </button>
      </div>
      <ActionError message={problem} />
      <p class="hint">You can disconnect it at any time, under Connected apps.</p>
    </section>
  );
}
