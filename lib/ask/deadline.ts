// How long one question may take within its Lambda: the operator's ASK_DEADLINE_MS, but never
// past the Lambda's own end, the margin left to send the answer (or the 504).
import type { Context } from 'aws-lambda';
import { ASK_MARGIN_MS } from '../config/summaries';

/** The signal and the moment a question's work ends by, from now. */
export function askDeadline(
  deadlineMs: number,
  lambda: Pick<Context, 'getRemainingTimeInMillis'>,
): { signal: AbortSignal; deadlineAt: number } {
  const ms = Math.max(0, Math.min(deadlineMs, lambda.getRemainingTimeInMillis() - ASK_MARGIN_MS));
  return { signal: AbortSignal.timeout(ms), deadlineAt: Date.now() + ms };
}
