// Connected apps: the AI apps the person allowed with OAuth (GET /connected-apps), with what each
// may do (its scope), when each was connected and last used, and Disconnect (DELETE
// /connected-apps/{id}), which refuses its tokens from the next request. Behind "Show connected
// apps", as API keys are; Disconnect asks first, as deleting a key does.
import { useEffect, useState } from 'preact/hooks';
import type { connectedAppListSchema } from '../../lib/oauth/schemas';
import type * as z from '../../lib/schema';
import { ApiError, call } from '../api';
import { Confirm } from '../confirm';
import { ActionError } from '../field';
import { Panel } from '../panel';
import { dateTime } from '../times';
import { LastUsed } from './made-key';

type ConnectedApp = z.output<typeof connectedAppListSchema>['items'][number];

interface ConnectedAppsProps {
  token: string;
  onSignedOut: (error: unknown) => void;
}

export function ConnectedApps(props: ConnectedAppsProps) {
  return (
    <Panel
      id="apps"
      title="Connected apps"
      what="connected apps"
      hint="AI apps you allowed to use your account (claude.ai, Claude Desktop, ChatGPT and other MCP clients), through the MCP endpoint."
    >
      <AppList {...props} />
    </Panel>
  );
}

/** The apps listed, and what became of the last one disconnected. */
function useApps({ token, onSignedOut }: ConnectedAppsProps) {
  const [items, setItems] = useState<ConnectedApp[]>();
  const [said, setSaid] = useState('');
  const [error, setError] = useState<string>();
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
    const name = app.client_name ?? 'The app';
    setError(undefined);
    try {
      await call('DELETE', `connected-apps/${encodeURIComponent(app.id)}`, { token });
      setSaid(`Disconnected ${app.client_name ?? 'the app'}: it can no longer use your account.`);
    } catch (thrown) {
      // 404: disconnected already (in another tab, or by the app itself): gone all the same.
      if (!(thrown instanceof ApiError && thrown.problem.status === 404)) return failed(thrown);
      setSaid(`${name} was disconnected already.`);
    }
    setItems((shown) => shown?.filter((item) => item.id !== app.id));
    document.getElementById('apps-title')?.focus();
  };
  return { items, said, error, disconnect };
}

function AppList(props: ConnectedAppsProps) {
  const { items, said, error, disconnect } = useApps(props);
  return (
    <>
      <p role="status">{said}</p>
      <ActionError message={error} />
      {items?.length === 0 && <p>None.</p>}
      <ul aria-labelledby="apps-title">
        {items?.map((app) => (
          <AppItem key={app.id} app={app} onDisconnect={() => disconnect(app)} />
        ))}
      </ul>
    </>
  );
}

/** A connected app: its name, what it may do, when it was connected and used, and Disconnect. */
function AppItem({ app, onDisconnect }: { app: ConnectedApp; onDisconnect: () => Promise<void> }) {
  const name = app.client_name ?? 'the app';
  return (
    <li>
      <strong>{app.client_name ?? 'An app that gave no name'}</strong>
      <span class="scope">
        may use <code>{app.scope.split(' ').join(', ')}</code>
      </span>
      <span class="when">
        connected <time dateTime={app.connected_at}>{dateTime(app.connected_at)}</time> ·{' '}
        <LastUsed at={app.last_used_at} />
      </span>
      <Confirm
        id={`disconnect-${app.id}`}
        keepId={`keep-${app.id}`}
        label="Disconnect"
        name={`Disconnect ${name}`}
        question={`Disconnect ${name}? It can no longer use your account until you connect it again.`}
        confirmLabel="Disconnect"
        keepLabel="Keep it connected"
        onConfirm={onDisconnect}
      />
    </li>
  );
}
