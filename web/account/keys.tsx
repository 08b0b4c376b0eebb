// API keys for scripts and AI agents (the /api-keys routes, which take the page's access token):
// make one with a lifetime, its key shown this once with the MCP configuration that uses it;
// list them, with when each expires (or expired); delete one after a confirmation. The key
// lives only in this panel's state: never in storage, and gone from the page when the person
// presses Done, closes the panel or signs out (each unmounts it).
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type ApiKey, type ApiKeyList, call, type NewApiKey } from '../api';
import { Confirm } from '../confirm';
import { ActionError, type Errors, SelectField, TextField, useSubmit } from '../field';
import { Panel } from '../panel';
import { messagesOf } from '../problems';
import { dateTime } from '../times';
import { DEFAULT_KEY_LIFETIME, KEY_LIFETIMES, newKeyBody } from './key-lifetimes';
import { Expiry, LastUsed, MadeKey } from './made-key';

interface KeysProps {
  token: string;
  onSignedOut: (error: unknown) => void;
}

/** The panel, closed until asked for: the list is fetched, and a new key shown, only while open. */
export function ApiKeys({ token, onSignedOut }: KeysProps) {
  return (
    <Panel
      id="keys"
      title="API keys"
      what="API keys"
      hint="For scripts and AI agents (MCP): a key works as your sign-in does, until it expires or you delete it."
    >
      <KeysPanel token={token} onSignedOut={onSignedOut} />
    </Panel>
  );
}

/** The keys listed, and what became of the last one deleted. */
function useKeys({ token, onSignedOut }: KeysProps) {
  const [items, setItems] = useState<ApiKey[]>();
  const [said, setSaid] = useState('');
  const [listError, setListError] = useState<string>();
  const failed = (error: unknown) => {
    if (error instanceof ApiError) setListError(error.problem.detail);
    else onSignedOut(error);
  };
  useEffect(() => {
    call<ApiKeyList>('GET', 'api-keys', { token }).then(({ body }) => setItems(body.items), failed);
  }, [token]);

  /** Deletes a key; says whether it is gone. */
  const remove = async (key: ApiKey): Promise<boolean> => {
    setListError(undefined);
    try {
      await call('DELETE', `api-keys/${encodeURIComponent(key.id)}`, { token });
      setSaid(`Deleted “${key.name}”: it no longer works.`);
    } catch (error) {
      // 404: deleted already (in another tab, or by a script): it is gone all the same.
      if (!(error instanceof ApiError && error.problem.status === 404)) {
        failed(error);
        return false;
      }
      setSaid(`“${key.name}” was deleted already.`);
    }
    setItems((shown) => shown?.filter((item) => item.id !== key.id));
    return true;
  };
  const added = (key: ApiKey) => {
    setItems((shown) => [key, ...(shown ?? [])]);
    setSaid('');
  };
  return { items, said, listError, remove, added };
}

function KeysPanel(props: KeysProps) {
  const keys = useKeys(props);
  const [made, setMade] = useState<NewApiKey>();
  // What takes the focus after the next render (an element's id): a new object each time.
  const [focus, setFocus] = useState<{ id: string }>();
  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus();
  }, [focus]);

  const remove = async (key: ApiKey) => {
    if (!(await keys.remove(key))) return;
    if (made?.id === key.id) setMade(undefined);
    setFocus({ id: 'keys-list-title' });
  };

  return (
    <>
      <NewKey
        {...props}
        onMade={(body) => {
          // The answer is the key as listed, plus the key: the list gets all of it but the key.
          const { key: _secret, ...listed } = body;
          keys.added(listed);
          setMade(body);
          setFocus({ id: 'made-key-title' });
        }}
      />
      {made && (
        <MadeKey
          made={made}
          onDone={() => {
            setMade(undefined);
            setFocus({ id: 'keys-list-title' });
          }}
        />
      )}
      <h3 id="keys-list-title" tabIndex={-1}>
        Your keys
      </h3>
      <p role="status">{keys.said}</p>
      <ActionError message={keys.listError} />
      {keys.items?.length === 0 && <p>None yet.</p>}
      <ul aria-labelledby="keys-list-title">
        {keys.items?.map((key) => (
          <KeyItem key={key.id} apiKey={key} onDelete={() => remove(key)} />
        ))}
      </ul>
    </>
  );
}

/** The form that makes a key: its name and lifetime. */
function NewKey({ token, onSignedOut, onMade }: KeysProps & { onMade: (key: NewApiKey) => void }) {
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState<string>(DEFAULT_KEY_LIFETIME);
  const { errors, busy, submit, editing } = useSubmit(
    async () => {
      const { body } = await call<NewApiKey>('POST', 'api-keys', {
        token,
        body: newKeyBody(name, lifetime),
      });
      setName('');
      onMade(body);
    },
    (problem): Errors => {
      const fields = messagesOf(problem);
      return fields.name || fields.expires_in_days ? fields : { form: problem.detail };
    },
    onSignedOut,
  );
  return (
    <form onSubmit={submit} noValidate aria-labelledby="new-key-title">
      <h3 id="new-key-title">New key</h3>
      <TextField
        id="key-name"
        label="Name"
        hint="To tell it by, e.g. laptop or my-agent."
        error={errors.name}
        value={name}
        onValue={editing(setName)}
        autocomplete="off"
        required
      />
      <SelectField
        id="key-lifetime"
        label="Expires in"
        options={KEY_LIFETIMES}
        value={lifetime}
        onValue={editing(setLifetime)}
        error={errors.expires_in_days}
      />
      <button type="submit" disabled={busy}>
        Create key
      </button>
      <ActionError message={errors.form} />
    </form>
  );
}

/** A listed key: its name, when it was made, used and expires, and Delete. */
function KeyItem({ apiKey: key, onDelete }: { apiKey: ApiKey; onDelete: () => Promise<void> }) {
  return (
    <li>
      <strong>{key.name}</strong>
      <span class="when">
        made <time dateTime={key.created_at}>{dateTime(key.created_at)}</time> ·{' '}
        <LastUsed at={key.last_used_at} /> · <Expiry at={key.expires_at} />
      </span>
      <Confirm
        id={`delete-${key.id}`}
        keepId={`keep-${key.id}`}
        label="Delete"
        name={`Delete ${key.name}`}
        question={`Delete “${key.name}”? Whatever uses it is refused from then on.`}
        confirmLabel="Delete"
        keepLabel="Keep it"
        onConfirm={onDelete}
      />
    </li>
  );
}
