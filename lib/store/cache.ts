// A cache in DynamoDB, with a TTL: fetched videos (transcript and metadata, keyed by video and
// requested language), so that a new length or model for a known video is made without YouTube.
// (Summaries are not cached here: each has its record in the summaries' store.)
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storeError } from '../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../aws/table';
import { pack, unpack } from './codec';

export interface Cache<T> {
  /** The cached value, or undefined when absent or expired. */
  get(key: string): Promise<T | undefined>;
  /** Stores a value for the cache's TTL (a TTL of 0 disables the cache). */
  put(key: string, value: T): Promise<void>;
}

/**
 * Part of every key: raise it when the shape of what is cached changes, so that entries made by
 * an older version are not served (they expire by their TTL). Videos, 2: `transcript_client`;
 * 3: `source` (captions or a transcription).
 */
const VIDEO_SHAPE_VERSION = 3;

/** The key of a fetched video (transcript and metadata). */
export function videoKey(videoId: string, language: string | undefined): string {
  return `VIDEO#v${VIDEO_SHAPE_VERSION}#${videoId}#${language?.toLowerCase() ?? '*'}`;
}

/**
 * The key of a video's transcription (one per video, whatever language a request asked for:
 * the audio has the language it has).
 */
export function transcribedKey(videoId: string): string {
  return `VIDEO#v${VIDEO_SHAPE_VERSION}#${videoId}#transcribed`;
}

/**
 * A cache of JSON values in one DynamoDB table, stored compressed: an item has a size limit.
 * @throws ServiceUnavailableError from get/put when DynamoDB is unavailable.
 */
export function createCache<T>(
  db: DynamoDBDocumentClient,
  table: string,
  ttlSeconds: number,
): Cache<T> {
  return {
    async get(key) {
      if (ttlSeconds === 0) return undefined;
      try {
        const { Item } = await db.send(new GetCommand({ TableName: table, Key: { pk: key } }));
        // DynamoDB deletes expired items eventually, not at once: check the TTL ourselves.
        if (!Item || Number(Item[TABLE_TTL_ATTRIBUTE]) <= Date.now() / 1000) return undefined;
        return unpack<T>(Item.value);
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
              pk: key,
              value: pack(value),
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
