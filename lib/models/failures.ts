// What a failed model call means for the client and for the operator, whichever provider served
// it: each client sorts its own errors into a ModelFailure, and `modelError` turns that into the
// problem the client gets and the line the operator reads. One mapping, so that the same fault
// (a refused key, a model that does not exist, an answer that is no answer) gives the same
// problem from either provider.
import {
  BadGatewayError,
  GatewayTimeoutError,
  type HttpError,
  ServiceUnavailableError,
} from '../errors';
import type { Logger } from '../logger';

/**
 * What went wrong, in the client's terms: the deadline passed (`timeout`), the provider throttled
 * or failed after our retries (`throttled`, `unavailable`), it refused this service
 * (`access-denied`, `credentials-missing`), does not know the model (`not-found`), rejected the
 * request or failed to process it (`rejected`), or answered with something that is not an answer
 * of its API at all: HTML, `{}`, `null`, JSON cut mid-way (`malformed`).
 */
export type ModelFailureKind =
  | 'timeout'
  | 'throttled'
  | 'unavailable'
  | 'access-denied'
  | 'credentials-missing'
  | 'not-found'
  | 'rejected'
  | 'malformed';

export interface ModelFailure {
  kind: ModelFailureKind;
  /** The provider's own Retry-After, in seconds, when it sent one. */
  retryAfterSeconds?: number | undefined;
  /** What the operator's log line carries besides the model: status, error name, request id. */
  details?: Record<string, unknown>;
  /** The provider's own words (never the client's to read: they may say anything). */
  providerMessage?: string;
}

/** How one provider is named in log lines, what it asks of the operator, and its waits. */
export interface ModelProvider {
  /** "Bedrock", "the model server". */
  name: string;
  /** The operator's line for the failures only they can fix (only AWS lacks credentials). */
  advice: Record<'access-denied' | 'not-found', string> & { 'credentials-missing'?: string };
  /** Retry-After of a 503 when the provider sends none, in seconds (credentials: 300). */
  retryAfter: { throttled: number; unavailable: number; credentials?: number };
  logger?: Logger | undefined;
}

/**
 * What a client is told when a model call fails, whichever provider served it: the same problem
 * types and words for Bedrock and OpenAI-compatible servers (each says more in its own log).
 */
export const modelProblems = {
  noSummary: () => new BadGatewayError('model-error', 'The model returned no text.'),
  timeout: (cause: unknown) =>
    new GatewayTimeoutError(
      'model-timeout',
      'The model did not answer in time; try again later, or with a faster model.',
      { cause },
    ),
  throttled: (retryAfterSeconds: number, cause: unknown) =>
    new ServiceUnavailableError(
      'model-throttled',
      'The model is receiving too many requests; try again shortly.',
      retryAfterSeconds,
      { cause },
    ),
  unavailable: (retryAfterSeconds: number, cause: unknown) =>
    new ServiceUnavailableError(
      'model-unavailable',
      'The model is temporarily unavailable; try again shortly.',
      retryAfterSeconds,
      { cause },
    ),
  failed: (cause: unknown) =>
    new BadGatewayError('model-error', 'The model could not produce an answer.', { cause }),
  tooLong: () =>
    new BadGatewayError('model-error', 'The model answered far more than it was asked for.'),
};

/**
 * The HttpError for a failed call of `model`: 504 model-timeout, 503 model-throttled /
 * model-unavailable / model-credentials-missing (with Retry-After), 502 model-access-denied or
 * model-error. Logs what the operator needs (a warning for transient failures, an error for
 * what they must fix), never to the client.
 */
export function modelError(
  failure: ModelFailure,
  model: { name: string },
  provider: ModelProvider,
  cause: unknown,
): HttpError {
  const { logger } = provider;
  const context = { model: model.name, ...failure.details };
  const withWords =
    failure.providerMessage === undefined
      ? context
      : { ...context, providerMessage: failure.providerMessage };
  switch (failure.kind) {
    case 'timeout':
      return modelProblems.timeout(cause);
    case 'throttled':
      logger?.warn(`${provider.name} throttled the request after all retries`, context);
      return modelProblems.throttled(
        failure.retryAfterSeconds ?? provider.retryAfter.throttled,
        cause,
      );
    case 'unavailable':
      logger?.warn(`${provider.name} is unreachable or failing after all retries`, context);
      return modelProblems.unavailable(
        failure.retryAfterSeconds ?? provider.retryAfter.unavailable,
        cause,
      );
    case 'access-denied':
      logger?.error(provider.advice['access-denied'], withWords);
      return new BadGatewayError(
        'model-access-denied',
        `The model "${model.name}" is not enabled for this service.`,
        { cause },
      );
    case 'credentials-missing':
      logger?.error(
        provider.advice['credentials-missing'] ?? `${provider.name} has no credentials`,
        withWords,
      );
      return new ServiceUnavailableError(
        'model-credentials-missing',
        `The model "${model.name}" cannot be called: this service has no AWS credentials.`,
        // An operator has to act: asking again within seconds would not help.
        provider.retryAfter.credentials ?? 300,
        { cause },
      );
    case 'not-found':
      logger?.error(provider.advice['not-found'], withWords);
      return new BadGatewayError(
        'model-error',
        `The model "${model.name}" is not available to this service.`,
        { cause },
      );
    case 'rejected':
      logger?.error(`${provider.name} rejected the request or failed to process it`, withWords);
      return modelProblems.failed(cause);
    case 'malformed':
      logger?.error(
        `${provider.name} answered with something that is not an answer of its API (a proxy's page, an empty or cut-off body?)`,
        withWords,
      );
      return modelProblems.failed(cause);
  }
}
