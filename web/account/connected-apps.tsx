// Connected apps: the AI apps the person allowed with OAuth (GET /connected-apps), with what each
// may do (its scope), when each was connected and last used, and Disconnect (DELETE /connected-apps/{id}), which refuses its
// tokens from the next request.
import { useEffect, useState } from 'preact/hooks';
import type { connectedAppListSchema } from '../../lib/oauth/schemas';
import type * as z from '../../lib/schema';
import { ApiError, call } from '../api';
import { dateTime } from '../times';

type ConnectedApp = z.output<typeof connectedAppListSchema>['items'][number];

interface ConnectedAppsProps {
  token: string;
  onSignedOut: (error: unknown) => void;
}

export function ConnectedApps({ token, onSignedOut }: ConnectedAppsProps) {
  const [items, setItems] = useState<ConnectedApp[]>();
  const [said, setSaid] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();

  const failed = (thrown: unknown) => {
    if (thrown instanceof ApiError) setError(thrown.problem.detail);
    else onSignedOut(thrown);
  };

  useEffect(() => {
    call<{ items: ConnectedApp[] }>('GET', 'connected-apps', { token }).then(
      ({ body }) => setItems(body.items),
      failed,
    );
  }, [token]);

  const disconnect = async (app: ConnectedApp) => {
    const name = app.client_name ?? 'the app';
    setBusy(app.id);
    setError(undefined);
    try {
      await call('DELETE', `connected-apps/${encodeURIComponent(app.id)}`, { token });
      setSaid(`Disconnected ${name}: it can no longer use your account.`);
    } catch (thrown) {
      // 404: disconnected already (in another tab, or by the app itself): gone all the same.
      if (!(thrown instanceof ApiError && thrown.problem.status === 404)) {
        setBusy(undefined);
        return failed(thrown);
      }
      setSaid(`${name} was disconnected already.`);
    }
    setItems((shown) => shown?.filter((item) => item.id !== app.id));
    setBusy(undefined);
    document.getElementById('apps-title')?.focus();
  };

  return (
    <section class="card apps" aria-labelledby="apps-title">
      <h2 id="apps-title" tabIndex={-1}>
        Connected apps
      </h2>
      <p class="hint">
        AI apps you allowed to use your account (claude.ai, Claude Desktop, ChatGPT and other MCP
        clients), through the MCP endpoint.
      </p>
      <p role="status">{said}</p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {items?.length === 0 && <p>None.</p>}
      <ul aria-labelledby="apps-title">
        {items?.map((app) => (
          <li key={app.id}>
            <strong>{app.client_name ?? 'An app that gave no name'}</strong>
            <span class="scope">
              may use <code>{app.scope.split(' ').join(', ')}</code>
            </span>
            <span class="when">
              connected <time dateTime={app.connected_at}>{dateTime(app.connected_at)}</time> ·{' '}
              {app.last_used_at ? (
                <>
                  last used <time dateTime={app.last_used_at}>{dateTime(app.last_used_at)}</time>
                </>
              ) : (
                'never used'
              )}
            </span>
            <button
              type="button"
              class="secondary"
              disabled={busy === app.id}
              aria-label={`Disconnect ${app.client_name ?? 'the app'}`}
              onClick={() => disconnect(app)}
            >
              Disconnect
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
