// RFC 7240's Prefer header, as POST /summarize reads it: `respond-async` (answer at once with
// the job) and `wait=N` (wait at most N seconds for the result). Preferences the server does not
// know, and malformed values, are ignored, as the RFC asks.
import parsePreferHeader from 'parse-prefer-header';

export interface Preferences {
  /** The client prefers an asynchronous answer (202 and the job) to waiting. */
  respondAsync: boolean;
  /** The most the client wants to wait, in whole seconds, when it said. */
  waitSeconds?: number;
}

/** The preferences of a Prefer header (several headers arrive joined with commas). */
export function readPreferences(header: string | undefined): Preferences {
  const preferences = parsePreferHeader(header);
  const wait = preferences.wait;
  const waitSeconds = typeof wait === 'string' && /^\d{1,6}$/.test(wait) ? Number(wait) : undefined;
  return {
    respondAsync: preferences.respondAsync === true,
    ...(waitSeconds === undefined ? {} : { waitSeconds }),
  };
}

/**
 * How long to wait for the result: what the client asked for (`wait`, else none with
 * `respond-async`), never more than the server's own wait.
 */
export function waitMsFor(preferences: Preferences, serverWaitMs: number): number {
  if (preferences.waitSeconds !== undefined) {
    return Math.min(preferences.waitSeconds * 1000, serverWaitMs);
  }
  return preferences.respondAsync ? 0 : serverWaitMs;
}

/**
 * The Preference-Applied value of an answer, or undefined: `wait=N` whenever the client sent it
 * (the answer always comes within N seconds), and `respond-async` when the answer is the job.
 */
export function preferenceApplied(
  preferences: Preferences,
  answeredAsync: boolean,
): string | undefined {
  const applied: string[] = [];
  if (preferences.respondAsync && answeredAsync) applied.push('respond-async');
  if (preferences.waitSeconds !== undefined) applied.push(`wait=${preferences.waitSeconds}`);
  return applied.length > 0 ? applied.join(', ') : undefined;
}
