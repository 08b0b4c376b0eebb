// Identical work done once, across processes and Lambda instances: the first request takes a
// short lease in DynamoDB and does the work; identical requests meanwhile wait for its outcome,
// which the lease item keeps for a moment (a result, or a verdict on the video), within their
// own deadline. For summaries: one YouTube fetch, one model call and one quota unit for any
// number of identical requests sent at once (OWASP API4:2023).
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storeError } from '../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../aws/table';
import { HttpError, ServiceUnavailableError } from '../errors';

export interface SingleFlightOptions {
  /** How long a lease holds when its holder vanishes (longer than the work may take). */
  leaseSeconds: number;
  /** How long waiters (and late identical requests) can read an outcome. */
  keepSeconds: number;
  /** How often waiters look at the lease. */
  pollMs: number;
}

export interface SingleFlight<T> {
  /**
   * The outcome of `work` for `key`, done here or by the request that holds the lease.
   * `shared` is true when another request did the work.
   * @throws what `work` throws (and the verdict on the video another request's work found);
   * ServiceUnavailableError summary-in-progress when the signal fires while waiting.
   */
  run(
    key: string,
    signal: AbortSignal,
    work: () => Promise<T>,
  ): Promise<{ value: T; shared: boolean }>;
}

interface LeaseItem {
  owner?: string;
  state?: 'working' | 'done' | 'failed';
  value?: Uint8Array;
  problem?: {
    status: number;
    type: string;
    title: string;
    detail: string;
    extensions: object;
    headers: Record<string, string>;
  };
  [TABLE_TTL_ATTRIBUTE]?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Leases as items of one table (`FLIGHT#<key>`), expiring by the table's TTL attribute. */
export function createSingleFlight<T>(
  db: DynamoDBDocumentClient,
  table: string,
  options: SingleFlightOptions,
): SingleFlight<T> {
  const put = async (pk: string, item: LeaseItem, condition?: { owner?: string; free?: true }) => {
    try {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: { pk, ...item },
          ...(condition?.free
            ? {
                ConditionExpression: 'attribute_not_exists(pk) OR #expires < :now',
                ExpressionAttributeNames: { '#expires': TABLE_TTL_ATTRIBUTE },
                ExpressionAttributeValues: { ':now': nowSeconds() },
              }
            : {}),
          ...(condition?.owner
            ? {
                ConditionExpression: '#owner = :owner',
                ExpressionAttributeNames: { '#owner': 'owner' },
                ExpressionAttributeValues: { ':owner': condition.owner },
              }
            : {}),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw storeError(error);
    }
  };

  const read = async (pk: string): Promise<LeaseItem | undefined> => {
    try {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: { pk }, ConsistentRead: true }),
      );
      return Item as LeaseItem | undefined;
    } catch (error) {
      throw storeError(error);
    }
  };

  /** Does the work under the lease, and leaves its outcome on the lease item. */
  async function lead(pk: string, owner: string, work: () => Promise<T>): Promise<T> {
    let value: T;
    try {
      value = await work();
    } catch (error) {
      const until = nowSeconds() + options.keepSeconds;
      // A verdict on the video (404, 422) is every identical request's answer; anything else
      // (a 5xx of ours or of a dependency, this requester's quota) frees the lease at once for
      // another request to try.
      const item: LeaseItem =
        error instanceof HttpError && (error.status === 404 || error.status === 422)
          ? { owner, state: 'failed', problem: problemOf(error), [TABLE_TTL_ATTRIBUTE]: until }
          : { owner, state: 'failed', [TABLE_TTL_ATTRIBUTE]: 0 };
      await put(pk, item, { owner }).catch(() => undefined);
      throw error;
    }
    const done: LeaseItem = {
      owner,
      state: 'done',
      value: gzipSync(JSON.stringify(value)),
      [TABLE_TTL_ATTRIBUTE]: nowSeconds() + options.keepSeconds,
    };
    // The work is done and paid for: a failure to share it only costs the waiters a retry.
    await put(pk, done, { owner }).catch(() => undefined);
    return value;
  }

  return {
    async run(key, signal, work) {
      const pk = `FLIGHT#${key}`;
      const owner = randomUUID();
      for (;;) {
        const lease: LeaseItem = {
          owner,
          state: 'working',
          [TABLE_TTL_ATTRIBUTE]: nowSeconds() + options.leaseSeconds,
        };
        if (await put(pk, lease, { free: true })) {
          return { value: await lead(pk, owner, work), shared: false };
        }
        // Someone else is doing it: wait for their outcome.
        for (;;) {
          await pause(options.pollMs, signal);
          const item = await read(pk);
          const expired = Number(item?.[TABLE_TTL_ATTRIBUTE] ?? 0) < nowSeconds();
          if (item?.state === 'done' && item.value && !expired) {
            return {
              value: JSON.parse(gunzipSync(item.value).toString('utf8')) as T,
              shared: true,
            };
          }
          if (item?.state === 'failed' && item.problem && !expired) throw errorOf(item.problem);
          // Free again (its holder failed on its side, or vanished): take it ourselves.
          if (!item || expired) break;
        }
      }
    },
  };
}

/** Waits `ms`, or throws summary-in-progress when the request's deadline comes first. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  const inProgress = () =>
    new ServiceUnavailableError(
      'summary-in-progress',
      'The same summary is being made for another request right now; try again in a few seconds.',
      5,
    );
  if (signal.aborted) throw inProgress();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(inProgress());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function problemOf(error: HttpError): NonNullable<LeaseItem['problem']> {
  return {
    status: error.status,
    type: error.type,
    title: error.title,
    detail: error.message,
    extensions: error.extensions,
    headers: error.headers,
  };
}

function errorOf(problem: NonNullable<LeaseItem['problem']>): HttpError {
  return new HttpError(problem.status, problem.type, problem.title, {
    detail: problem.detail,
    extensions: { ...problem.extensions },
    headers: problem.headers,
    expose: true,
  });
}
