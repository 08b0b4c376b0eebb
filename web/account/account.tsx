// Signing in and creating an account. A new account is signed in at once.
import { useEffect, useState } from 'preact/hooks';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARS } from '../../lib/accounts/auth/password-limits';
import { call, type Token } from '../api';
import { ActionError, type Errors, TextField, useSubmit } from '../field';
import { messagesOf } from '../problems';
import type { Session } from '../session';

interface AccountProps {
  onSignedIn: (session: Session) => void;
  /** Why the person is asked to sign in (a session that expired), if anything. */
  notice?: string | undefined;
}

/** Logs in, as POST /token takes a username or an email. */
async function signIn(identifier: string, password: string): Promise<Session> {
  const field = identifier.includes('@') ? 'email' : 'username';
  const { body } = await call<Token>('POST', 'token', {
    body: { [field]: identifier, password },
  });
  return {
    token: body.access_token,
    username: identifier,
    expiresAt: Date.now() + body.expires_in * 1000,
  };
}

/** One of the two forms: whether the person is in it, and telling that they went into it. */
interface FormProps {
  onSignedIn: (session: Session) => void;
  active: boolean;
  onEnter: () => void;
}

/** A form's error goes when the person turns to the other form: one error at a time. */
function useLeaving(active: boolean, clear: () => void) {
  useEffect(() => {
    if (!active) clear();
  }, [active]);
}

export function Account({ onSignedIn, notice }: AccountProps) {
  // The form the person is in: its error stays; the other's goes.
  const [active, setActive] = useState<'sign-in' | 'create'>();
  const enter = (form: 'sign-in' | 'create') => () => setActive(form);
  // Why the person was signed out (an expired sign-in, a deleted account) takes the focus: the
  // control they last used is gone from the page, and this is what became of it.
  useEffect(() => {
    if (notice) document.getElementById('account-notice')?.focus();
  }, [notice]);

  return (
    <div class="account">
      {notice && (
        <p id="account-notice" class="notice" role="status" tabIndex={-1}>
          {notice}
        </p>
      )}
      <div class="account-forms">
        <SignIn onSignedIn={onSignedIn} active={active === 'sign-in'} onEnter={enter('sign-in')} />
        <CreateAccount
          onSignedIn={onSignedIn}
          active={active === 'create'}
          onEnter={enter('create')}
        />
      </div>
    </div>
  );
}

function SignIn({ onSignedIn, active, onEnter }: FormProps) {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, submit, clear, editing } = useSubmit(
    async () => onSignedIn(await signIn(identifier.trim(), password)),
    (problem): Errors => {
      // A wrong password and an unknown name get the same 401: shown by the password.
      if (problem.status === 401) return { password: problem.detail };
      const fields = messagesOf(problem);
      return {
        identifier: fields.username ?? fields.email ?? '',
        password: fields.password ?? '',
        form: fields.username || fields.email || fields.password ? '' : problem.detail,
      };
    },
  );
  useLeaving(active, clear);

  return (
    <form
      class="card"
      aria-labelledby="sign-in-title"
      onSubmit={submit}
      onFocusIn={onEnter}
      noValidate
    >
      <h2 id="sign-in-title">Sign in</h2>
      <TextField
        id="sign-in-identifier"
        label="Username or email"
        error={errors.identifier}
        value={identifier}
        onValue={editing(setIdentifier)}
        name="username"
        autocomplete="username"
        required
      />
      <TextField
        id="sign-in-password"
        label="Password"
        error={errors.password}
        value={password}
        onValue={editing(setPassword)}
        type="password"
        name="password"
        autocomplete="current-password"
        required
      />
      <button type="submit" disabled={busy}>
        Sign in
      </button>
      <ActionError message={errors.form} />
    </form>
  );
}

function CreateAccount({ onSignedIn, active, onEnter }: FormProps) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, submit, clear, editing } = useSubmit(
    async () => {
      await call('POST', 'register', {
        body: { username: username.trim(), email: email.trim(), password },
      });
      onSignedIn(await signIn(username.trim(), password));
    },
    (problem) => {
      const fields = messagesOf(problem);
      const byField = Boolean(fields.username || fields.email || fields.password);
      // A taken username or email (409) says which in its detail.
      const taken = problem.status === 409;
      const takenField = /email/i.test(problem.detail) ? 'email' : 'username';
      return {
        ...fields,
        ...(taken ? { [takenField]: problem.detail } : {}),
        form: byField || taken ? '' : problem.detail,
      };
    },
  );
  useLeaving(active, clear);

  return (
    <form
      class="card"
      aria-labelledby="create-account-title"
      onSubmit={submit}
      onFocusIn={onEnter}
      noValidate
    >
      <h2 id="create-account-title">Create account</h2>
      <TextField
        id="new-username"
        label="Username"
        error={errors.username}
        value={username}
        onValue={editing(setUsername)}
        name="username"
        autocomplete="username"
        required
      />
      <TextField
        id="new-email"
        label="Email"
        error={errors.email}
        value={email}
        onValue={editing(setEmail)}
        type="email"
        name="email"
        autocomplete="email"
        required
      />
      <TextField
        id="new-password"
        label="Password"
        error={errors.password}
        hint={`At least ${PASSWORD_MIN_CHARS} characters (at most ${PASSWORD_MAX_BYTES} bytes); not a commonly used password.`}
        value={password}
        onValue={editing(setPassword)}
        type="password"
        name="new-password"
        autocomplete="new-password"
        required
      />
      <button type="submit" disabled={busy}>
        Create account
      </button>
      <ActionError message={errors.form} />
    </form>
  );
}
