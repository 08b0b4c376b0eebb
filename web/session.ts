// Who is signed in, kept for this tab only: in memory and in sessionStorage (so a reload keeps
// the person signed in), never in a cookie, which the API would then have to trust on requests
// another site makes. docs/SECURITY.md says why, and how the page's CSP protects it.

export interface Session {
  token: string;
  username: string;
  /** When the token expires (epoch ms). */
  expiresAt: number;
}

const SESSION_KEY = 'tubesum.session';
const DRAFT_KEY = 'tubesum.draft';

/** sessionStorage, or nothing where the browser refuses it (a private mode, a sandbox). */
function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The session kept by this tab, unless it has expired. */
export function loadSession(now = Date.now()): Session | undefined {
  try {
    const kept = JSON.parse(storage()?.getItem(SESSION_KEY) ?? 'null') as Session | null;
    if (kept && typeof kept.token === 'string' && kept.expiresAt > now) return kept;
  } catch {
    // Not ours, or damaged: start signed out.
  }
  storage()?.removeItem(SESSION_KEY);
  return undefined;
}

export function saveSession(session: Session | undefined): void {
  if (session) storage()?.setItem(SESSION_KEY, JSON.stringify(session));
  else storage()?.removeItem(SESSION_KEY);
}

/** What the person is writing in the summary form, kept across a sign-in and a reload. */
export interface Draft {
  video_url: string;
  summary_length: string;
  used_model: string;
  summary_language: string;
  /** How many videos of a playlist or channel (the Videos field, shown for their links). */
  limit: string;
}

export function loadDraft(): Partial<Draft> {
  try {
    return JSON.parse(storage()?.getItem(DRAFT_KEY) ?? '{}') as Partial<Draft>;
  } catch {
    return {};
  }
}

export function saveDraft(draft: Draft): void {
  storage()?.setItem(DRAFT_KEY, JSON.stringify(draft));
}
