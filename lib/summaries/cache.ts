// Finished summaries in DynamoDB, keyed by video, requested transcript language, model and
// length, with a TTL. A repeat request is answered from here without YouTube or Bedrock.
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storeError } from '../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../aws/table';

export interface CacheKey {
  videoId: string;
  /** The language the request asked for, or undefined for the default track choice. */
  language: string | undefined;
  model: string;
  length: number;
}

export interface SummaryCache<T> {
  /** The cached value, or undefined when absent or expired. */
  get(key: CacheKey): Promise<T | undefined>;
  /** Stores a value for ttlSeconds (0 disables the cache). */
  put(key: CacheKey, value: T): Promise<void>;
}

const cachePk = (key: CacheKey) =>
  `SUMMARY#${key.videoId}#${key.language?.toLowerCase() ?? '*'}#${key.model}#${key.length}`;

/** A summary cache over one DynamoDB table. */
export function createSummaryCache<T>(
  db: DynamoDBDocumentClient,
  table: string,
  ttlSeconds: number,
): SummaryCache<T> {
  return {
    async get(key) {
      if (ttlSeconds === 0) return undefined;
      try {
        const { Item } = await db.send(
          new GetCommand({ TableName: table, Key: { pk: cachePk(key) } }),
        );
        // DynamoDB deletes expired items eventually, not at once: check the TTL ourselves.
        if (!Item || Number(Item[TABLE_TTL_ATTRIBUTE]) <= Date.now() / 1000) return undefined;
        return JSON.parse(String(Item.value)) as T;
      } catch (error) {
        throw storeError(error);
      }
    },
    async put(key, value) {
      if (ttlSeconds === 0) return;
      try {
        await db.send(
          new PutCommand({
            TableName: table,
            Item: {
              pk: cachePk(key),
              // One string attribute: summaries are read whole, and this keeps nulls intact.
              value: JSON.stringify(value),
              [TABLE_TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + ttlSeconds,
            },
          }),
        );
      } catch (error) {
        throw storeError(error);
      }
    },
  };
}
