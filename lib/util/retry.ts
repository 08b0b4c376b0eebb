// Retries of calls to a model (Bedrock, an OpenAI-compatible server): exponential backoff with
// full jitter, within the caller's deadline. Ours rather than an SDK's because an SDK's retry
// strategy knows nothing of the request's deadline (its backoff may sleep past it) and would
// multiply with ours; hand-written because it is this small and both clients need the same.

export interface RetryOptions {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** First backoff ceiling (ms), doubled per attempt up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Whether this error is worth another attempt (throttling, 5xx, a network failure). */
  retryable: (error: unknown) => boolean;
  /** Cancels the call in flight (the caller passes it on) and any backoff. */
  signal: AbortSignal;
  /** Told before each backoff, e.g. to log it. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/**
 * Calls `call` until it succeeds, fails with an error that is not retryable, runs out of
 * attempts, or the signal fires (during a backoff, the last error is thrown: the caller reports
 * the transient failure, not a timeout).
 */
export async function withRetries<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts));
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!options.retryable(error) || attempt >= maxAttempts || options.signal.aborted) {
        throw error;
      }
      // Full jitter: spreads the retries of many concurrent requests (and of our own map-reduce
      // parts) instead of having them hit a throttled model in lockstep.
      const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
      const delayMs = Math.round(Math.random() * ceiling);
      options.onRetry?.(error, attempt, delayMs);
      if (!(await sleep(delayMs, options.signal))) throw error;
    }
  }
}

/** Resolves after `ms`, or early with false when the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
