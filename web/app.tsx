// The page: signed out, the account forms; signed in, the workspace, or the consent screen when
// an app sent the person here to connect (`?authorize=`). Sign in, sign out, an expired sign-in
// and a deleted account all pass through here.
import { useState } from 'preact/hooks';
import { Account } from './account/account';
import { authorizationRequestId, Consent } from './account/consent';
import { SignedOutError } from './api';
import { loadSession, type Session, saveSession } from './session';
import type { PageSettings } from './settings';
import { Workspace } from './summaries/workspace';
import { goTo } from './use-place';

export function App({ settings }: { settings: PageSettings }) {
  const [session, setSession] = useState<Session | undefined>(() => loadSession());
  const [notice, setNotice] = useState<string>();
  // An app's connection request, answered once the person is signed in.
  const [authorizing] = useState(() => authorizationRequestId(window.location.search));

  const signIn = (next: Session) => {
    saveSession(next);
    setSession(next);
    setNotice(undefined);
  };
  const signOut = (why?: string, { keepPlace = false } = {}) => {
    // What was open is the person's: the next one to sign in here starts without it, unless the
    // same person signs in again after an expired sign-in.
    if (!keepPlace) goTo({}, { replace: true });
    saveSession(undefined);
    setSession(undefined);
    setNotice(why);
  };
  /** A call refused with 401 (the token expired): back to Sign in; anything else is a bug. */
  const refused = (error: unknown) => {
    if (error instanceof SignedOutError) {
      signOut('Your sign-in has expired. Sign in again: what you wrote is kept.', {
        keepPlace: true,
      });
    } else {
      throw error;
    }
  };

  return (
    <>
      <Header session={session} onSignOut={() => signOut()} />
      <main>
        <h1>Summaries of YouTube videos</h1>
        <p class="intro">
          Paste a YouTube link: you get a summary of what is said, its chapters, and its key points,
          each with a link to its moment in the video.
        </p>
        {session && authorizing ? (
          <Consent
            id={authorizing}
            token={session.token}
            username={session.username}
            onSignedOut={refused}
          />
        ) : session ? (
          <Workspace
            token={session.token}
            settings={settings}
            onSignedOut={refused}
            onAccountDeleted={() =>
              signOut(
                'Your account has been deleted, with its API keys and its summaries. You are signed out.',
              )
            }
          />
        ) : (
          <Account
            onSignedIn={signIn}
            notice={
              notice ??
              (authorizing
                ? 'An app asks to connect to your account: sign in to answer.'
                : undefined)
            }
          />
        )}
      </main>
      <footer>
        <a href="docs">API documentation</a>
      </footer>
    </>
  );
}

/** The name of the service, and who is signed in with Sign out. */
function Header({ session, onSignOut }: { session: Session | undefined; onSignOut: () => void }) {
  return (
    <header class="top">
      <p class="brand">tubesum</p>
      {session && (
        <p class="who">
          Signed in as <strong>{session.username}</strong>{' '}
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </p>
      )}
    </header>
  );
}
