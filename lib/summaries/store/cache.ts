// Caches in DynamoDB, with a TTL: finished summaries (keyed by video, requested transcript
// language, model and length) and fetched videos (transcript and metadata, keyed by video and
// requested language). A repeat summary is answered without YouTube or Bedrock; a new length or
// model for a known video is made without YouTube.
import { gunzipSync, gzipSync } from 'node:zlib';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storeError } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';

export interface Cache<T> {
  /** The cached value, or undefined when absent or expired. */
  get(key: string): Promise<T | undefined>;
  /** Stores a value for the cache's TTL (a TTL of 0 disables the cache). */
  put(key: string, value: T): Promise<void>;
}

/**
 * Part of every key: raise it when the shape of what is cached changes, so that entries made by
 * an older version are not served (they expire by their TTL). Videos, 2: `transcript_client`.
 */
const VIDEO_SHAPE_VERSION = 2;

/** Summaries, 3: `key_points` and `summary_language`. */
const SUMMARY_SHAPE_VERSION = 3;

/** The key of a finished summary. */
export function summaryKey(key: {
  videoId: string;
  /** The language the request asked for, or undefined for the default track choice. */
  language: string | undefined;
  model: string;
  length: number;
  /** The language the summary is to be written in, or undefined for the transcript's. */
  summaryLanguage: string | undefined;
}): string {
  const track = key.language?.toLowerCase() ?? '*';
  const written = key.summaryLanguage?.toLowerCase() ?? '*';
  return `SUMMARY#v${SUMMARY_SHAPE_VERSION}#${key.videoId}#${track}#${key.model}#${key.length}#${written}`;
}

/** The key of a fetched video (transcript and metadata). */
export function videoKey(videoId: string, language: string | undefined): string {
  return `VIDEO#v${VIDEO_SHAPE_VERSION}#${videoId}#${language?.toLowerCase() ?? '*'}`;
}

/** A stored value, or undefined for one this version cannot read (it is then made anew). */
function decode<T>(value: unknown): T | undefined {
  try {
    return JSON.parse(gunzipSync(value as Uint8Array).toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * A cache of JSON values in one DynamoDB table. Values are stored gzip-compressed: a 3-hour
 * transcript is ~350 KB of JSON, close to DynamoDB's 400 KB item limit, and ~60 KB compressed.
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
        return decode<T>(Item.value);
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
              value: gzipSync(JSON.stringify(value)),
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
