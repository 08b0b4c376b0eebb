// The per-user daily quota of new summaries and answers (POST /summarize, POST /ask), counted
// atomically in DynamoDB (one counter per user and UTC day). A job that starts a new run of a
// summary takes a unit in the same transaction that starts the run (the record's claim), so
// identical requests sent at once take one unit between them; a question not answered from the
// cache takes one before it asks YouTube. A failure of ours or of a dependency gives it back to
// the day it was taken from.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { storeCall, storeError } from '../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../aws/table';
import { type HttpError, TooManyRequestsError } from '../errors';
import { bound } from '../util/bound';

/** One unit of a user's quota, as an update to put in a transaction. */
export interface Reservation {
  /** The UTC day (YYYY-MM-DD) the unit is taken from. */
  day: string;
  /** The conditional update that takes it (absent: the quota is unlimited). */
  update?: {
    TableName: string;
    Key: Record<string, string>;
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  };
  /** The 429 to answer when the update's condition fails (no unit left today). */
  exceeded(): TooManyRequestsError;
}

export interface Quota {
  /** A unit of today's quota, to take in a transaction. */
  reservation(userId: string): Reservation;
  /**
   * Takes one unit of today's quota.
   * @throws TooManyRequestsError (429, Retry-After until UTC midnight) when none is left.
   */
  reserve(userId: string): Promise<{ day: string }>;
  /**
   * Takes `units` of today's quota at once, or none (a collection's new summaries, before any
   * starts). @throws TooManyRequestsError (429 quota-exceeded) saying how many are needed and
   * how many are left, when fewer are.
   */
  reserveMany(userId: string, units: number): Promise<{ day: string }>;
  /** Gives back a unit taken on `day` (UTC, YYYY-MM-DD); nothing when its counter is gone. */
  release(userId: string, day: string): Promise<void>;
  /**
   * Deletes the user's counters (their account is being deleted): each is keyed by the user's id.
   * A unit given back afterwards makes no new one.
   */
  forget(userId: string): Promise<void>;
}

/**
 * The days whose counters may still be in the table: a counter lives until the end of the day
 * after its own (its TTL), and DynamoDB deletes an expired item within days, not at once (a Scan
 * still finds it); a day ahead for a clock a little fast.
 */
const COUNTER_DAYS_BACK = 7;

/**
 * YouTube's own failures (502, 503 blocked, 504): the lookup reached YouTube and costs its unit
 * like a verdict does. Were they free, a client could repeat lookups of a video that makes
 * YouTube fail (a stalled caption track, a broken answer) without limit, each one a worker run
 * and requests to YouTube from this service's address, the very thing the quota bounds. Not
 * here, and so given back: youtube-unreachable (no request reached YouTube).
 */
const YOUTUBE_FAILURES = new Set(['youtube-bad-response', 'youtube-blocked', 'youtube-timeout']);

/**
 * Whether a request that took a unit and then failed with `error` gets it back: yes for a
 * failure of ours or of the model (5xx), and for a run that its user's transcription budget
 * stopped before any work (that budget is the one that was spent); no for anything YouTube
 * answered (a verdict on the video, 404 or 422, or YouTube's own failures) and for a refusal of
 * the request itself.
 */
export function givesUnitBack(error: HttpError): boolean {
  if (error.type === 'transcription-budget-exceeded') return true;
  return error.status >= 500 && !YOUTUBE_FAILURES.has(error.type);
}

function today(now: Date) {
  const day = now.toISOString().slice(0, 10);
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { day, secondsLeft: Math.ceil((midnight - now.getTime()) / 1000), midnight };
}

/** What a quota's operations share: the table and the daily limit (0: unlimited). */
export interface QuotaDeps {
  db: DynamoDBDocumentClient;
  table: string;
  limit: number;
}

const counterKey = (userId: string, day: string) => ({ pk: `QUOTA#${userId}#${day}` });

/** A counter lives until the end of the day after its own. */
const counterTtl = (midnight: number) => Math.floor(midnight / 1000) + 86_400;

/** A unit of today's quota, to take in a transaction. */
export function reservation({ table, limit }: QuotaDeps, userId: string): Reservation {
  const { day, secondsLeft, midnight } = today(new Date());
  const exceeded = () =>
    new TooManyRequestsError(
      secondsLeft,
      `You have used all ${limit} summaries and questions of today (UTC); cached ones stay available.`,
      'quota-exceeded',
    );
  if (limit === 0) return { day, exceeded };
  return {
    day,
    exceeded,
    update: {
      TableName: table,
      Key: counterKey(userId, day),
      UpdateExpression: 'ADD #used :one SET #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(#used) OR #used < :limit',
      ExpressionAttributeNames: { '#used': 'used', '#ttl': TABLE_TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ttl': counterTtl(midnight) },
    },
  };
}

/** Takes one unit of today's quota; see Quota.reserve. */
export async function reserve(deps: QuotaDeps, userId: string): Promise<{ day: string }> {
  const { day, update, exceeded } = reservation(deps, userId);
  if (update === undefined) return { day };
  try {
    await deps.db.send(new UpdateCommand(update));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw exceeded();
    throw storeError(error);
  }
  return { day };
}

/** Takes `units` of today's quota at once, or none; see Quota.reserveMany. */
export async function reserveMany(
  { db, table, limit }: QuotaDeps,
  userId: string,
  units: number,
): Promise<{ day: string }> {
  const { day, secondsLeft, midnight } = today(new Date());
  if (limit === 0 || units === 0) return { day };
  const shortOf = (left: number) =>
    new TooManyRequestsError(
      secondsLeft,
      `This needs ${units} new summaries and you have ${left} of ${limit} left today (UTC): ask for fewer videos, or try again after midnight UTC. Videos summarized before cost nothing.`,
      'quota-exceeded',
    );
  if (units > limit) throw shortOf(limit);
  const Key = counterKey(userId, day);
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key,
        UpdateExpression: 'ADD #used :units SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#used) OR #used <= :most',
        ExpressionAttributeNames: { '#used': 'used', '#ttl': TABLE_TTL_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':units': units,
          ':most': limit - units,
          ':ttl': counterTtl(midnight),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw storeError(error);
    const { Item } = await storeCall(() =>
      db.send(new GetCommand({ TableName: table, Key, ConsistentRead: true })),
    );
    throw shortOf(Math.max(0, limit - Number(Item?.used ?? 0)));
  }
  return { day };
}

/** Gives back a unit taken on `day`; nothing when its counter is gone. */
export async function release(
  { db, table, limit }: QuotaDeps,
  userId: string,
  day: string,
): Promise<void> {
  if (limit === 0) return;
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: counterKey(userId, day),
        UpdateExpression: 'ADD #used :minus',
        ConditionExpression: '#used > :zero',
        ExpressionAttributeNames: { '#used': 'used' },
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    // A counter that expired (days ago) has nothing to give back.
    if (!(error instanceof ConditionalCheckFailedException)) throw storeError(error);
  }
}

/** Deletes the user's counters of every day that may still have one. */
export async function forget({ db, table }: QuotaDeps, userId: string): Promise<void> {
  const now = Date.now();
  const days = [];
  for (let back = -1; back <= COUNTER_DAYS_BACK; back++) {
    days.push(new Date(now - back * 86_400_000).toISOString().slice(0, 10));
  }
  await Promise.all(
    days.map((day) =>
      storeCall(() =>
        db.send(new DeleteCommand({ TableName: table, Key: counterKey(userId, day) })),
      ),
    ),
  );
}

/** A quota of `limit` new summaries and answers per user per UTC day; 0 means unlimited. */
export function createQuota(db: DynamoDBDocumentClient, table: string, limit: number): Quota {
  const deps: QuotaDeps = { db, table, limit };
  return {
    reservation: bound(deps, reservation),
    reserve: bound(deps, reserve),
    reserveMany: bound(deps, reserveMany),
    release: bound(deps, release),
    forget: bound(deps, forget),
  };
}
