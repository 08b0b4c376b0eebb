// The Bedrock Runtime client, created once per process, and the one place that retries it.
//
// Which layer retries: ours, not the SDK's, which is built with maxAttempts 1.
// `converse` below retries throttling, 5xx, ModelNotReady and network failures up to
// `maxAttempts` times with exponential backoff and full jitter, and stops at once when the
// caller's AbortSignal fires (the /summarize deadline).
import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandInput,
  type ConverseCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { withRetries } from '../util/retry';
import { isNetworkError } from './network';

export interface BedrockClientOptions {
  region: string;
  /** AWS_ENDPOINT_URL_BEDROCK_RUNTIME; plain http:// is fine (a local stub). */
  endpoint?: string;
  /** Attempts per Converse call, first one included (BEDROCK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Give up connecting after this long (default 3 s); the deadline bounds the rest. */
  connectionTimeoutMs?: number;
  /** First backoff ceiling (default 250 ms), doubled per attempt up to `retryMaxDelayMs` (4 s). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Static credentials, for tests against the stub only; deployments use the default chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export interface ConverseOptions {
  /** Aborted when the caller's deadline passes: cancels the call in flight and any backoff. */
  signal: AbortSignal;
  logger?: Logger;
}

/** A Bedrock Runtime client whose Converse calls retry transient failures within a deadline. */
export interface BedrockClient {
  readonly sdk: BedrockRuntimeClient;
  readonly maxAttempts: number;
  /**
   * One Converse call with retries. Throws the SDK's error when it is not transient or attempts
   * are exhausted, the last transient error when the signal fires during backoff, and an
   * `AbortError` when the signal fires while a call is in flight.
   */
  converse(input: ConverseCommandInput, options: ConverseOptions): Promise<ConverseCommandOutput>;
  destroy(): void;
}

/** How a failed Bedrock call should be treated. */
export type BedrockFailureKind =
  | 'throttled'
  | 'unavailable'
  | 'timeout'
  | 'aborted'
  | 'access-denied'
  | 'credentials-missing'
  | 'not-found'
  | 'invalid-request'
  | 'model-error'
  | 'unknown';

const RETRYABLE = new Set<BedrockFailureKind>(['throttled', 'unavailable']);

/** Classifies any error a Converse call can throw (SDK exception, network error, abort). */
export function classifyBedrockError(error: unknown): {
  kind: BedrockFailureKind;
  retryable: boolean;
} {
  const kind = kindOf(error);
  // Account quotas (tokens per day and the like) do not lift within one request.
  const quota = error instanceof Error && error.name === 'ServiceQuotaExceededException';
  return { kind, retryable: RETRYABLE.has(kind) && !quota };
}

function kindOf(error: unknown): BedrockFailureKind {
  if (!(error instanceof Error)) return 'unknown';
  switch (error.name) {
    case 'ThrottlingException':
    case 'ServiceQuotaExceededException':
      return 'throttled';
    case 'ServiceUnavailableException':
    case 'InternalServerException':
    case 'ModelNotReadyException':
    // The connection phase timed out (connectionTimeout), nothing was processed.
    case 'TimeoutError':
      return 'unavailable';
    case 'ModelTimeoutException':
      return 'timeout';
    case 'AbortError':
      return 'aborted';
    case 'AccessDeniedException':
    case 'UnrecognizedClientException':
      return 'access-denied';
    // The SDK's credential chain found nothing: no request was sent.
    case 'CredentialsProviderError':
      return 'credentials-missing';
    case 'ResourceNotFoundException':
      return 'not-found';
    case 'ValidationException':
      return 'invalid-request';
    case 'ModelErrorException':
      return 'model-error';
  }
  if (isNetworkError(error)) return 'unavailable';
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return 'unavailable';
  if (status === 429) return 'throttled';
  return 'unknown';
}

/**
 * Creates the Bedrock Runtime client (once, at module scope) with a plain HTTP/1.1 handler, a
 * connection timeout and our own retries. Throws nothing; bad credentials surface on first call.
 */
export function createBedrockClient(options: BedrockClientOptions): BedrockClient {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts));
  const baseDelay = options.retryBaseDelayMs ?? 250;
  const maxDelay = options.retryMaxDelayMs ?? 4_000;
  const sdk = new BedrockRuntimeClient({
    region: options.region,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    maxAttempts: 1,
    // The default handler speaks HTTP/2, which a node:http stub (and some proxies) cannot.
    // No requestTimeout: the caller's AbortSignal is the deadline for the whole call.
    requestHandler: new NodeHttpHandler({
      connectionTimeout: options.connectionTimeoutMs ?? 3_000,
    }),
  });

  function converse(
    input: ConverseCommandInput,
    { signal, logger }: ConverseOptions,
  ): Promise<ConverseCommandOutput> {
    return withRetries(() => sdk.send(new ConverseCommand(input), { abortSignal: signal }), {
      maxAttempts,
      baseDelayMs: baseDelay,
      maxDelayMs: maxDelay,
      retryable: (error) => classifyBedrockError(error).retryable,
      signal,
      onRetry: (error, attempt, delayMs) =>
        logger?.warn('Bedrock call failed, retrying', {
          modelId: input.modelId,
          error: (error as Error).name,
          attempt,
          maxAttempts,
          delayMs,
        }),
    });
  }

  return { sdk, maxAttempts, converse, destroy: () => sdk.destroy() };
}

/** The process-wide client settings from config (region, endpoint override, attempts). */
export function bedrockClientOptionsFromConfig(config: Config): BedrockClientOptions {
  return {
    region: config.AWS_REGION,
    ...(config.AWS_ENDPOINT_URL_BEDROCK_RUNTIME === undefined
      ? {}
      : { endpoint: config.AWS_ENDPOINT_URL_BEDROCK_RUNTIME }),
    maxAttempts: config.BEDROCK_MAX_ATTEMPTS,
  };
}

/** Creates the Bedrock client from config: `createBedrockClient(bedrockClientOptionsFromConfig(config))`. */
export function createBedrockClientFromConfig(config: Config): BedrockClient {
  return createBedrockClient(bedrockClientOptionsFromConfig(config));
}
