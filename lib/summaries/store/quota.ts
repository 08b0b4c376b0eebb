// The per-user daily summary quota, counted atomically in DynamoDB (one counter per user and
// UTC day). A summary reserves a unit before any work and gives it back if it fails.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { storeError } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import { TooManyRequestsError } from '../../errors';

export interface Quota {
  /**
   * Takes one unit of today's quota.
   * @throws TooManyRequestsError (429, Retry-After until UTC midnight) when none is left.
   */
  reserve(userId: string): Promise<void>;
  /** Gives back a unit taken by reserve() (the summary failed). */
  release(userId: string): Promise<void>;
}

function today(now: Date) {
  const day = now.toISOString().slice(0, 10);
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { day, secondsLeft: Math.ceil((midnight - now.getTime()) / 1000), midnight };
}

/** A quota of `limit` summaries per user per UTC day; 0 means unlimited. */
export function createQuota(db: DynamoDBDocumentClient, table: string, limit: number): Quota {
  const key = (userId: string, day: string) => ({ pk: `QUOTA#${userId}#${day}` });
  return {
    async reserve(userId) {
      if (limit === 0) return;
      const { day, secondsLeft, midnight } = today(new Date());
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: key(userId, day),
            UpdateExpression: 'ADD used :one SET #ttl = :ttl',
            ConditionExpression: 'attribute_not_exists(used) OR used < :limit',
            ExpressionAttributeNames: { '#ttl': TABLE_TTL_ATTRIBUTE },
            ExpressionAttributeValues: {
              ':one': 1,
              ':limit': limit,
              ':ttl': Math.floor(midnight / 1000) + 86_400,
            },
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) {
          throw new TooManyRequestsError(
            secondsLeft,
            `You have used all ${limit} summaries of today (UTC); cached summaries stay available.`,
            'quota-exceeded',
          );
        }
        throw storeError(error);
      }
    },
    async release(userId) {
      if (limit === 0) return;
      const { day } = today(new Date());
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: key(userId, day),
            UpdateExpression: 'ADD used :minus',
            ConditionExpression: 'used > :zero',
            ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
          }),
        );
      } catch (error) {
        // Past midnight the unit belongs to yesterday's counter; nothing to give back.
        if (!(error instanceof ConditionalCheckFailedException)) throw storeError(error);
      }
    },
  };
}
