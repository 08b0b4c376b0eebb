// The DynamoDB client, created once per process, and the mapping of its failures to HTTP.
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  type DeleteCommand,
  DynamoDBDocumentClient,
  type PutCommand,
  type TransactWriteCommand,
  type UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config';
import {
  HttpError,
  ServerMisconfiguredError,
  ServiceUnavailableError,
  storageUnavailable,
  UnprocessableError,
} from '../errors';
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

// Refusals that only the operator can fix: the table is missing, or the function's credentials
// or permissions are wrong.
const MISCONFIGURED_NAMES = new Set([
  'ResourceNotFoundException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'MissingAuthenticationTokenException',
  'CredentialsProviderError',
]);

/**
 * True for DynamoDB's refusal of a key over its size limits (2,048 bytes for a partition key),
 * alone or as the reason a transaction was cancelled. Our keys are built from what clients send;
 * such a refusal means a value got past its bound.
 */
function isKeyTooLarge(error: unknown): boolean {
  const keyTooLarge = (message: string | undefined) =>
    /key/i.test(message ?? '') && /bytes|size/i.test(message ?? '');
  if (error instanceof TransactionCanceledException) {
    return (error.CancellationReasons ?? []).some(
      (reason) => reason.Code === 'ValidationError' && keyTooLarge(reason.Message),
    );
  }
  return (
    error instanceof Error && error.name === 'ValidationException' && keyTooLarge(error.message)
  );
}

/**
 * Converts a DynamoDB failure into what the client should see: a 503 with Retry-After when
 * the store is throttled or unreachable; 503 `server-misconfigured` (detail hidden) when the
 * table is missing or the credentials or permissions are wrong; 422 `value-too-large` when a
 * key built from the request is over DynamoDB's size limit, so that no input makes a 500.
 * Anything else (a request of ours that DynamoDB finds malformed: a bug) stays an opaque 500.
 */
export function storeError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (isTransientStoreError(error)) {
    return storageUnavailable(error);
  }
  if (isKeyTooLarge(error)) {
    return new UnprocessableError(
      'value-too-large',
      'Value too large',
      'A value in the request is too long to be stored or looked up.',
      { cause: error },
    );
  }
  if (error instanceof Error && MISCONFIGURED_NAMES.has(error.name)) {
    return new ServerMisconfiguredError(error);
  }
  return error;
}

/**
 * Sends a conditional write whose refusal is an answer, not an error: false when its condition
 * refused it (the item was gone, or changed already), true when it was written.
 * @throws what storeError() makes of any other failure.
 */
export async function conditionalWrite(
  db: DynamoDBDocumentClient,
  command: UpdateCommand | PutCommand | DeleteCommand,
): Promise<boolean> {
  try {
    await db.send(command as UpdateCommand);
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw storeError(error);
  }
}

/**
 * Runs DynamoDB calls, their failure expressed as storeError() says.
 * @throws what storeError() makes of any failure (503 storage-unavailable, 422, ...).
 */
export async function storeCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw storeError(error);
  }
}

/** The cancellation codes of a failed transaction, e.g. ['None', 'ConditionalCheckFailed']. */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}

// Concurrent transactions on one item cancel each other (TransactionConflict) and the SDK does
// not retry cancellations; writeTransaction retries a few times so that a race resolves into one
// winner and refusals by the conditions.
const TRANSACTION_ATTEMPTS = 6;
const RETRYABLE_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a write transaction, again after a short random wait while it is cancelled by a
 * concurrent one or by throttling. Returns undefined once written, or the cancellation codes
 * when one of its conditions refused it (e.g. ['ConditionalCheckFailed', 'None']).
 * @throws ServiceUnavailableError when it stays cancelled; storeError() of any other failure.
 */
export async function writeTransaction(
  db: DynamoDBDocumentClient,
  command: TransactWriteCommand,
): Promise<string[] | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(command);
      return undefined;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes?.includes('ConditionalCheckFailed')) return codes;
      const retryable = codes?.some((code) => RETRYABLE_CANCELLATIONS.has(code)) ?? false;
      if (!retryable) throw storeError(error);
      if (attempt >= TRANSACTION_ATTEMPTS) {
        throw new ServiceUnavailableError(
          'storage-unavailable',
          'The data store is busy; try again shortly.',
          1,
          { cause: error },
        );
      }
      await sleep(Math.random() * 40 * 2 ** attempt);
    }
  }
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

/** A table as a store's operations take it: the client, and the table's name. */
export interface DocumentTable {
  db: DynamoDBDocumentClient;
  table: string;
}
