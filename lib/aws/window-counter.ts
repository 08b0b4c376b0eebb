// Counters in DynamoDB that allow at most `limit` uses per window of time, shared by every
// Lambda instance, and reserved atomically *before* the work they guard: N requests in parallel
// can never take more than `limit` (a conditional update serializes them on the item). Login
// failures and registrations per address are counted with them.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { storeError } from './dynamodb';
import { TABLE_TTL_ATTRIBUTE } from './table';

export type Reservation = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface WindowCounter {
  /** Takes one of `limit` uses of the current window of `key`, starting a window if none is. */
  reserve(key: string, limit: number, windowSeconds: number): Promise<Reservation>;
  /** Gives back a use taken by reserve() (what it guarded did not count). */
  release(key: string): Promise<void>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Counters as items of one table (`used`, `windowStart`, and a TTL twice the window). */
export function createWindowCounter(db: DynamoDBDocumentClient, table: string): WindowCounter {
  /** Starts a new window with this use, unless another request just did. */
  async function startWindow(key: string, windowSeconds: number, now: number): Promise<boolean> {
    try {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            pk: key,
            used: 1,
            windowStart: now,
            [TABLE_TTL_ATTRIBUTE]: now + windowSeconds * 2,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR windowStart <= :cutoff',
          ExpressionAttributeValues: { ':cutoff': now - windowSeconds },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw storeError(error);
    }
  }

  return {
    async reserve(key, limit, windowSeconds) {
      // A lost race (a window started between our two writes) is simply tried again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const now = nowSeconds();
        try {
          await db.send(
            new UpdateCommand({
              TableName: table,
              Key: { pk: key },
              UpdateExpression: 'ADD used :one',
              ConditionExpression: 'windowStart > :cutoff AND used < :limit',
              ExpressionAttributeValues: {
                ':one': 1,
                ':cutoff': now - windowSeconds,
                ':limit': limit,
              },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return { ok: true };
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException)) throw storeError(error);
          // The item as it was (marshalled: lib-dynamodb leaves exceptions alone).
          const windowStart = Number(error.Item?.windowStart?.N ?? 0);
          const used = Number(error.Item?.used?.N ?? 0);
          const windowEnd = windowStart + windowSeconds;
          if (windowEnd > now && used >= limit)
            return { ok: false, retryAfterSeconds: windowEnd - now };
          if (await startWindow(key, windowSeconds, now)) return { ok: true };
        }
      }
      return { ok: false, retryAfterSeconds: 1 };
    },

    async release(key) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: key },
            UpdateExpression: 'ADD used :minusOne',
            ConditionExpression: 'used > :zero',
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
          }),
        );
      } catch (error) {
        // Nothing to give back (the window ended and was replaced): fine.
        if (!(error instanceof ConditionalCheckFailedException)) throw storeError(error);
      }
    },
  };
}
