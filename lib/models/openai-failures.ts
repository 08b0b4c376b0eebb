// What a failed call to an OpenAI-compatible server means: whether to send it again, and what
// the failure was for the client and the operator; and the per-call signal that keeps the SDK's
// listeners from piling up on a long summary's one signal.
import OpenAI from 'openai';
import { nothingWasSent } from '../net/patient-fetch';
import { parseRetryAfter } from '../net/retry-after';
import type { ModelFailure } from './failures';

/**
 * Whether the body of a response failed to arrive whole: the connection closed mid-way. The SDK
 * reads the body after its own error handling, so this comes as fetch's TypeError, not as an
 * APIConnectionError.
 */
function bodyCutOff(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return (
    error instanceof TypeError && typeof cause?.code === 'string' && /^UND_ERR/.test(cause.code)
  );
}

/**
 * Whether a failed call is worth another attempt: throttling or a server error (the work was not
 * done), or a connection that never reached the server. A timeout or a connection that broke
 * after the request went out is not: the server may still be working on it (issue 34).
 */
export function retryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    return error.status === 429 || error.status >= 500;
  }
  return nothingWasSent(error);
}

/**
 * What a failed call was, as a ModelFailure; undefined for an error that is neither the
 * server's nor the network's: a bug of ours, left as it is.
 */
export function failureOf(error: unknown, signal: AbortSignal): ModelFailure | undefined {
  if (signal.aborted || error instanceof OpenAI.APIUserAbortError) return { kind: 'timeout' };
  const status = error instanceof OpenAI.APIError ? error.status : undefined;
  const details = { status, error: (error as Error)?.name };
  const providerMessage = error instanceof Error ? error.message : String(error);
  const retryAfterSeconds =
    error instanceof OpenAI.APIError
      ? parseRetryAfter(error.headers?.get('retry-after'))
      : undefined;
  if (status === 429) return { kind: 'throttled', details, retryAfterSeconds };
  if (
    error instanceof OpenAI.APIConnectionError ||
    bodyCutOff(error) ||
    (status !== undefined && status >= 500)
  ) {
    return { kind: 'unavailable', details, retryAfterSeconds };
  }
  if (status === 401 || status === 403) return { kind: 'access-denied', details, providerMessage };
  if (status === 404) return { kind: 'not-found', details, providerMessage };
  if (error instanceof OpenAI.APIError) return { kind: 'rejected', details, providerMessage };
  // A 200 whose body says it is JSON and is not (cut mid-way, or an error page so labelled).
  if (error instanceof SyntaxError) return { kind: 'malformed', details, providerMessage };
  return undefined;
}

/**
 * Runs `call` with a signal of its own that follows `signal`, and lets go of `signal` when it
 * ends. The SDK adds an abort listener to the signal of every request and never removes it: one
 * signal shared by the dozens of calls of a long summary would collect one per call (Node warns
 * of a leak past ten), where this signal is dropped with its call.
 */
export async function withOwnSignal<T>(
  signal: AbortSignal,
  call: (own: AbortSignal) => Promise<T>,
) {
  const own = new AbortController();
  const abort = () => own.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  try {
    return await call(own.signal);
  } finally {
    signal.removeEventListener('abort', abort);
  }
}
