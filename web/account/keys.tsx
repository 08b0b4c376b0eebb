// API keys for scripts and AI agents (the /api-keys routes, which take the page's access token):
// make one with a lifetime, its key shown this once with the MCP configuration that uses it;
// list them, with when each expires (or expired); delete one after a confirmation. The key lives only in this panel's state: never in storage, and gone
// from the page when the person presses Done, closes the panel or signs out (each unmounts it).
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type ApiKey, type ApiKeyList, call, type NewApiKey } from '../api';
import { ActionError, type Errors, SelectField, TextField, useSubmit } from '../field';
import { messagesOf } from '../problems';
import { dateTime } from '../times';
import { DEFAULT_KEY_LIFETIME, KEY_LIFETIMES, keyExpiry, newKeyBody } from './key-lifetimes';
import { claudeCodeCommand, mcpEndpoint, mcpJsonConfig } from './mcp-config';

interface KeysProps {
  token: string;
  onSignedOut: (error: unknown) => void;
}

/** The panel, closed until asked for: the list is fetched, and a new key shown, only while open. */
export function ApiKeys({ token, onSignedOut }: KeysProps) {
  const [open, setOpen] = useState(false);
  return (
    <section class="card keys" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p class="hint">
        For scripts and AI agents (MCP): a key works as your sign-in does, until it expires or you
        delete it.
      </p>
      <button
        type="button"
        id="keys-toggle"
        class="secondary"
        aria-expanded={open}
        aria-controls={open ? 'keys-panel' : undefined}
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide API keys' : 'Show API keys'}
      </button>
      {open && <KeysPanel token={token} onSignedOut={onSignedOut} />}
    </section>
  );
}

function KeysPanel({ token, onSignedOut }: KeysProps) {
  const [items, setItems] = useState<ApiKey[]>();
  const [made, setMade] = useState<NewApiKey>();
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState<string>(DEFAULT_KEY_LIFETIME);
  const [confirming, setConfirming] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const [said, setSaid] = useState('');
  const [listError, setListError] = useState<string>();
  // What takes the focus after the next render (an element's id): a new object each time.
  const [focus, setFocus] = useState<{ id: string }>();

  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus();
  }, [focus]);

  const failed = (error: unknown) => {
    if (error instanceof ApiError) setListError(error.problem.detail);
    else onSignedOut(error);
  };

  useEffect(() => {
    call<ApiKeyList>('GET', 'api-keys', { token }).then(({ body }) => setItems(body.items), failed);
  }, [token]);

  const { errors, busy, submit } = useSubmit(
    async () => {
      const { body } = await call<NewApiKey>('POST', 'api-keys', {
        token,
        body: newKeyBody(name, lifetime),
      });
      // The answer is the key as listed, plus the key: the list gets all of it but the key.
      const { key: _secret, ...listed } = body;
      setItems((shown) => [listed, ...(shown ?? [])]);
      setMade(body);
      setName('');
      setSaid('');
      setFocus({ id: 'made-key-title' });
    },
    (problem): Errors => {
      const fields = messagesOf(problem);
      return fields.name || fields.expires_in_days ? fields : { form: problem.detail };
    },
    onSignedOut,
  );

  const done = () => {
    setMade(undefined);
    setFocus({ id: 'keys-list-title' });
  };

  const remove = async (key: ApiKey) => {
    setDeleting(true);
    try {
      await call('DELETE', `api-keys/${encodeURIComponent(key.id)}`, { token });
      setSaid(`Deleted “${key.name}”: it no longer works.`);
    } catch (error) {
      // 404: deleted already (in another tab, or by a script): it is gone all the same.
      if (!(error instanceof ApiError && error.problem.status === 404)) {
        setDeleting(false);
        return failed(error);
      }
      setSaid(`“${key.name}” was deleted already.`);
    }
    setItems((shown) => shown?.filter((item) => item.id !== key.id));
    if (made?.id === key.id) setMade(undefined);
    setConfirming(undefined);
    setDeleting(false);
    setFocus({ id: 'keys-list-title' });
  };

  const ask = (key: ApiKey) => {
    setConfirming(key.id);
    setFocus({ id: 'keep-key' });
  };
  const keep = (key: ApiKey) => {
    setConfirming(undefined);
    setFocus({ id: `delete-${key.id}` });
  };

  return (
    <div id="keys-panel">
      <form onSubmit={submit} noValidate aria-labelledby="new-key-title">
        <h3 id="new-key-title">New key</h3>
        <TextField
          id="key-name"
          label="Name"
          hint="To tell it by, e.g. laptop or my-agent."
          error={errors.name}
          value={name}
          onValue={setName}
          autocomplete="off"
          required
        />
        <SelectField
          id="key-lifetime"
          label="Expires in"
          options={KEY_LIFETIMES}
          value={lifetime}
          onValue={setLifetime}
          error={errors.expires_in_days}
        />
        <button type="submit" disabled={busy}>
          Create key
        </button>
        <ActionError message={errors.form} />
      </form>
      {made && <MadeKey made={made} onDone={done} />}
      <h3 id="keys-list-title" tabIndex={-1}>
        Your keys
      </h3>
      <p role="status">{said}</p>
      {listError && (
        <p class="error" role="alert">
          {listError}
        </p>
      )}
      {items?.length === 0 && <p>None yet.</p>}
      <ul aria-labelledby="keys-list-title">
        {items?.map((key) => (
          <li key={key.id}>
            <strong>{key.name}</strong>
            <span class="when">
              made <time dateTime={key.created_at}>{dateTime(key.created_at)}</time> ·{' '}
              {key.last_used_at ? (
                <>
                  last used <time dateTime={key.last_used_at}>{dateTime(key.last_used_at)}</time>
                </>
              ) : (
                'never used'
              )}{' '}
              · <Expiry at={key.expires_at} />
            </span>
            {confirming === key.id ? (
              <fieldset class="confirm actions">
                <legend>Delete “{key.name}”? Whatever uses it is refused from then on.</legend>
                <button type="button" disabled={deleting} onClick={() => remove(key)}>
                  Delete
                </button>
                <button type="button" id="keep-key" class="secondary" onClick={() => keep(key)}>
                  Keep it
                </button>
              </fieldset>
            ) : (
              <button
                type="button"
                id={`delete-${key.id}`}
                class="secondary"
                aria-label={`Delete ${key.name}`}
                onClick={() => ask(key)}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A key just made: the key, shown this once, and how to give it to an MCP client. */
function MadeKey({ made, onDone }: { made: NewApiKey; onDone: () => void }) {
  const endpoint = mcpEndpoint(location.href);
  const command = claudeCodeCommand(endpoint, made.key);
  const config = mcpJsonConfig(endpoint);
  return (
    <div class="made-key">
      <h3 id="made-key-title" tabIndex={-1}>
        Your new key “{made.name}”
      </h3>
      <p>
        Copy it now: it is shown this once, and the service keeps only a hash of it. Keep it like a
        password.{' '}
        {made.expires_at ? (
          <>
            It works until <time dateTime={made.expires_at}>{dateTime(made.expires_at)}</time>.
          </>
        ) : (
          'It never expires: it works until you delete it.'
        )}
      </p>
      <label for="made-key">Key</label>
      <input id="made-key" readOnly value={made.key} spellcheck={false} />
      <Copy text={made.key} what="key" />
      <h4>Use it with an AI agent (MCP)</h4>
      <p>Claude Code:</p>
      <pre class="snippet">{command}</pre>
      <Copy text={command} what="command" />
      <p>
        Cursor (<code>~/.cursor/mcp.json</code>), with the key in the environment it starts from as{' '}
        <code>TUBESUM_API_KEY</code>:
      </p>
      <pre class="snippet">{config}</pre>
      <Copy text={config} what="configuration" />
      <p>
        Any other MCP client: the URL <code>{endpoint}</code> with the header{' '}
        <code>Authorization: Bearer</code> and the key.
      </p>
      <div class="actions">
        <button type="button" id="key-done" onClick={onDone}>
          Done: hide the key
        </button>
      </div>
    </div>
  );
}

/** When a key expires, or that it has expired (marked, as a problem is), or that it never will. */
function Expiry({ at }: { at: string | null }) {
  if (at === null) return <>never expires</>;
  const expired = keyExpiry(at, Date.now()) === 'expired';
  return (
    <span class={expired ? 'expired' : undefined}>
      {expired ? 'expired' : 'expires'} <time dateTime={at}>{dateTime(at)}</time>
    </span>
  );
}

/** "Copy the …", and what came of it, said where the button is. */
function Copy({ text, what }: { text: string; what: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied.');
    } catch {
      // No clipboard (plain http to another machine): the text is on the page to select.
      setSaid(`The clipboard is not available here: select the ${what} and copy it.`);
    }
  };
  return (
    <div class="actions">
      <button type="button" onClick={copy}>
        Copy the {what}
      </button>
      <span role="status">{said}</span>
    </div>
  );
}
