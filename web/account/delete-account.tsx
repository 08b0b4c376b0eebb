// Deleting the account (DELETE /account, with the page's access token): behind a confirmation
// that asks for the password, as the API does. A wrong password is told by the password field,
// which takes the focus back; once deleted, the page signs out and says so (app.tsx).
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

export function DeleteAccount({ token, onDeleted, onSignedOut }: DeleteAccountProps) {
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  // What takes the focus after the next render (an element's id): a new object each time.
  const [focus, setFocus] = useState<{ id: string }>();

  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus();
  }, [focus]);

  const { errors, busy, submit } = useSubmit(
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
    if (errors.password) setFocus({ id: 'delete-account-password' });
  }, [errors]);

  const ask = () => {
    setConfirming(true);
    setFocus({ id: 'delete-account-password' });
  };
  const keep = () => {
    setConfirming(false);
    setPassword('');
    setFocus({ id: 'delete-account-start' });
  };

  return (
    <section class="card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete account</h2>
      <p class="hint">
        Deletes your account for good, with your API keys and your summaries: nothing can bring them
        back. Your username and email can then be used for a new account.
      </p>
      {confirming ? (
        <form onSubmit={submit} noValidate aria-labelledby="delete-account-question">
          <p id="delete-account-question">Delete your account? Enter your password to confirm.</p>
          <TextField
            id="delete-account-password"
            label="Password"
            error={errors.password}
            value={password}
            onValue={setPassword}
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
            <button type="button" class="secondary" onClick={keep}>
              Keep my account
            </button>
          </div>
          <ActionError message={errors.form} />
        </form>
      ) : (
        <button type="button" id="delete-account-start" class="secondary" onClick={ask}>
          Delete account…
        </button>
      )}
    </section>
  );
}
