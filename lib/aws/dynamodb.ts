// The DynamoDB client, created once per process, and the mapping of its failures to HTTP.
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config';
import { HttpError, ServiceUnavailableError } from '../errors';
import { isNetworkError } from './network';

function isLoopback(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  const host = new URL(endpoint).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

/** A document client with our own deadlines: the SDK has no request timeout by default. */
export function createDocumentClient(config: Config): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: config.AWS_REGION,
    // From the Config, not from the SDK's own reading of the environment: the local host and
    // the tests pass Configs of their own.
    ...(config.AWS_ENDPOINT_URL_DYNAMODB ? { endpoint: config.AWS_ENDPOINT_URL_DYNAMODB } : {}),
    // DynamoDB Local accepts any key; a laptop without AWS credentials must still work.
    ...(isLoopback(config.AWS_ENDPOINT_URL_DYNAMODB)
      ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: Math.min(1_000, config.DYNAMODB_TIMEOUT_MS),
      requestTimeout: config.DYNAMODB_TIMEOUT_MS,
      // Without this the timeout only logs a warning and a hung endpoint hangs the request.
      throwOnRequestTimeout: true,
    }),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

const UNAVAILABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'AbortError',
]);

/** True when a DynamoDB error is worth retrying later (throttled, down, too slow). */
export function isTransientStoreError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return UNAVAILABLE_NAMES.has(error.name) || isNetworkError(error);
}

/**
 * Converts a DynamoDB failure into what the client should see: a 503 with Retry-After when
 * the store is throttled or unreachable; anything else stays an (opaque) 500.
 */
export function storeError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (isTransientStoreError(error)) {
    return new ServiceUnavailableError(
      'storage-unavailable',
      'The data store is not answering right now; try again shortly.',
      2,
      { cause: error },
    );
  }
  return error;
}

/** The cancellation codes of a failed transaction, e.g. ['None', 'ConditionalCheckFailed']. */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}

/**
 * The ExpressionAttributeNames of expressions that name every attribute `#name` (many plain
 * words, such as `state`, `value` or `work`, are reserved in DynamoDB's expressions), with
 * `aliases` for tokens whose attribute is named otherwise (`#expires` for `expiresAt`).
 */
export function expressionNames(
  expressions: readonly (string | undefined)[],
  aliases: Record<string, string> = {},
): Record<string, string> {
  const names: Record<string, string> = {};
  for (const match of expressions.join(' ').matchAll(/#([A-Za-z][A-Za-z0-9]*)/g)) {
    const [token, name = ''] = match;
    names[token] = aliases[token] ?? name;
  }
  return names;
}
