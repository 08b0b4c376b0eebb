// Deleting the account (DELETE /account, with the page's access token): behind a confirmation
// that asks for the password, as the API does. A wrong password is told by the password field,
// which takes the focus back; once deleted, the page signs out and says so.
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api';
import { ActionError, type Errors, TextField, useSubmit } from '../field';
import { messagesOf } from '../problems';

interface DeleteAccountProps {
  token: string;
  /** The account is gone: sign out and say so. */
  onDeleted: () => void;
  onSignedOut: (error: unknown) => void;
}

/** What takes the focus after the next render (an element's id): a new object each time. */
function useFocus() {
  const [focus, setFocus] = useState<{ id: string }>();
  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus();
  }, [focus]);
  return (id: string) => setFocus({ id });
}

export function DeleteAccount(props: DeleteAccountProps) {
  const [confirming, setConfirming] = useState(false);
  const focus = useFocus();
  return (
    <section class="card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete account</h2>
      <p class="hint">
        Deletes your account for good, with your API keys and your summaries: nothing can bring them
        back. Your username and email can then be used for a new account.
      </p>
      {confirming ? (
        <AskPassword
          {...props}
          focus={focus}
          onKeep={() => {
            setConfirming(false);
            focus('delete-account-start');
          }}
        />
      ) : (
        <button
          type="button"
          id="delete-account-start"
          class="secondary"
          onClick={() => {
            setConfirming(true);
            focus('delete-account-password');
          }}
        >
          Delete account…
        </button>
      )}
    </section>
  );
}

interface AskPasswordProps extends DeleteAccountProps {
  focus: (id: string) => void;
  onKeep: () => void;
}

/** The confirmation: the password, then Delete my account (primary) or Keep my account. */
function AskPassword({ token, onDeleted, onSignedOut, focus, onKeep }: AskPasswordProps) {
  const [password, setPassword] = useState('');
  const { errors, busy, submit, editing } = useSubmit(
    async () => {
      try {
        await call('DELETE', 'account', { token, body: { password } });
      } finally {
        // Never kept longer than the request: gone whatever the answer.
        setPassword('');
      }
      onDeleted();
    },
    (problem): Errors => {
      const field = messagesOf(problem).password;
      // A wrong password (403 wrong-password) or a missing one (422) is told by the field;
      // anything else (too many attempts, the server) under the buttons, as an alert.
      if (problem.type.endsWith(':wrong-password') || field !== undefined) {
        return { password: field ?? problem.detail };
      }
      return { form: problem.detail };
    },
    onSignedOut,
  );

  // The field takes the focus back with its error (announced too: Enter in the field leaves the
  // focus where it was, and a screen reader would not read the field again).
  useEffect(() => {
    if (errors.password) focus('delete-account-password');
  }, [errors]);

  return (
    <form onSubmit={submit} noValidate aria-labelledby="delete-account-question">
      <p id="delete-account-question">Delete your account? Enter your password to confirm.</p>
      <TextField
        id="delete-account-password"
        label="Password"
        error={errors.password}
        value={password}
        onValue={editing(setPassword)}
        type="password"
        name="password"
        autocomplete="current-password"
        required
        announceError
      />
      <div class="actions confirm">
        <button type="submit" id="delete-account-confirm" disabled={busy}>
          Delete my account
        </button>
        <button type="button" class="secondary" onClick={onKeep}>
          Keep my account
        </button>
      </div>
      <ActionError message={errors.form} />
    </form>
  );
}
