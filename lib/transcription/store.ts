// What the workers share about transcriptions, in the table: one item per video being
// transcribed (who transcribes it, under a lease it renews, and the name of the backend's job
// once one runs: a run that ends before the job does hands it over by that name), and one
// counter per user and UTC day of the minutes transcribed for them (TRANSCRIPTION_DAILY_MINUTES).
// Two summaries of one caption-less video made at once (other lengths, other models, other
// users) so transcribe it once: the second worker waits for the first's transcript.

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type DocumentTable, storeCall } from '../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../aws/table';
import type { HttpError } from '../errors';
import { bound } from '../util/bound';
import { transcriptionBudgetExceeded } from './errors';

/** Who paid for a transcription: refunded from that day if it fails on our side. */
export interface MinutesCharge {
  userId: string;
  day: string;
  minutes: number;
}

/** What a claim finds of an earlier run: the job it started and who paid. */
export interface Claimed {
  /** The backend's job an earlier run started (Amazon Transcribe's job name). */
  jobName?: string;
  charge?: MinutesCharge;
}

export interface TranscriptionStoreOptions {
  /** How long a claim holds without renewal. */
  leaseMs: number;
  /** Minutes per user per UTC day; 0 means unlimited. */
  dailyMinutes: number;
}

/** A claim outlives its runs (a Transcribe job handed from run to run) for at most two days. */
const KEEP_SECONDS = 2 * 86_400;

const nowSeconds = () => Math.floor(Date.now() / 1000);

function today(now = new Date()) {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return {
    day: now.toISOString().slice(0, 10),
    secondsLeft: Math.ceil((midnight - now.getTime()) / 1000),
    expires: Math.floor(midnight / 1000) + 86_400,
  };
}

/** The table the claims and minutes are in. */
export interface TranscriptionTable extends DocumentTable {
  options: TranscriptionStoreOptions;
}

const claimKey = (videoId: string) => ({ pk: `TRANSCRIPTION#${videoId}` });
const minutesKey = (userId: string, day: string) => ({ pk: `TRANSCRIBED#${userId}#${day}` });

/** One conditional update: its new item, or undefined when the condition fails. */
function update(
  { db, table }: TranscriptionTable,
  input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>,
) {
  return storeCall(async () => {
    try {
      const output = await db.send(
        new UpdateCommand({ TableName: table, ReturnValues: 'ALL_NEW', ...input }),
      );
      return output.Attributes ?? {};
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  });
}

/**
 * The transcription claims and minutes of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createTranscriptionStore(
  db: DynamoDBDocumentClient,
  table: string,
  options: TranscriptionStoreOptions,
) {
  const transcriptions: TranscriptionTable = { db, table, options };
  return {
    claim: bound(transcriptions, claimTranscription),
    renew: bound(transcriptions, renewClaim),
    remember: bound(transcriptions, rememberJob),
    release: bound(transcriptions, releaseClaim),
    charge: bound(transcriptions, chargeMinutes),
    refund: bound(transcriptions, refundMinutes),
  };
}

/**
 * Makes `owner` the one transcribing `videoId`, unless a live claim of another holds it
 * ('busy'). Returns what earlier runs left: the job they started, who paid.
 */
export async function claimTranscription(
  transcriptions: TranscriptionTable,
  videoId: string,
  owner: string,
): Promise<Claimed | 'busy'> {
  const { options } = transcriptions;
  const now = Date.now();
  const item = await update(transcriptions, {
    Key: claimKey(videoId),
    UpdateExpression: 'SET #owner = :me, #until = :until, #expires = :expires',
    ConditionExpression: 'attribute_not_exists(#owner) OR #until < :now OR #owner = :me',
    ExpressionAttributeNames: {
      '#owner': 'owner',
      '#until': 'leaseUntil',
      '#expires': TABLE_TTL_ATTRIBUTE,
    },
    ExpressionAttributeValues: {
      ':me': owner,
      ':until': now + options.leaseMs,
      ':now': now,
      ':expires': nowSeconds() + KEEP_SECONDS,
    },
  });
  if (!item) return 'busy';
  return {
    ...(typeof item.jobName === 'string' ? { jobName: item.jobName } : {}),
    ...(item.charge ? { charge: item.charge as MinutesCharge } : {}),
  };
}

/** Extends the claim; false when it is no longer this owner's. */
export async function renewClaim(
  transcriptions: TranscriptionTable,
  videoId: string,
  owner: string,
): Promise<boolean> {
  const { options } = transcriptions;
  const item = await update(transcriptions, {
    Key: claimKey(videoId),
    UpdateExpression: 'SET #until = :until',
    ConditionExpression: '#owner = :me',
    ExpressionAttributeNames: { '#owner': 'owner', '#until': 'leaseUntil' },
    ExpressionAttributeValues: { ':me': owner, ':until': Date.now() + options.leaseMs },
  });
  return item !== undefined;
}

/** Keeps what a later run needs to pick the work up: the job's name, who paid. */
export async function rememberJob(
  transcriptions: TranscriptionTable,
  videoId: string,
  owner: string,
  kept: Claimed,
): Promise<void> {
  const names: Record<string, string> = { '#owner': 'owner' };
  const values: Record<string, unknown> = { ':me': owner };
  const sets: string[] = [];
  for (const [field, value] of Object.entries(kept)) {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  if (sets.length === 0) return;
  await update(transcriptions, {
    Key: claimKey(videoId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: '#owner = :me',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/**
 * Gives the claim up. `keep`: the job goes on (a run out of time), so its name and charge
 * stay for whoever claims next; otherwise the transcription ended and nothing stays.
 */
export async function releaseClaim(
  transcriptions: TranscriptionTable,
  videoId: string,
  owner: string,
  keep: boolean,
): Promise<void> {
  await update(transcriptions, {
    Key: claimKey(videoId),
    UpdateExpression: keep ? 'REMOVE #owner, #until' : 'REMOVE #owner, #until, #jobName, #charge',
    ConditionExpression: '#owner = :me',
    ExpressionAttributeNames: {
      '#owner': 'owner',
      '#until': 'leaseUntil',
      ...(keep ? {} : { '#jobName': 'jobName', '#charge': 'charge' }),
    },
    ExpressionAttributeValues: { ':me': owner },
  });
}

/**
 * Takes `minutes` of the user's budget of today.
 * @throws TooManyRequestsError (429 transcription-budget-exceeded, Retry-After until UTC
 *   midnight) when they would pass TRANSCRIPTION_DAILY_MINUTES.
 */
export async function chargeMinutes(
  transcriptions: TranscriptionTable,
  userId: string,
  minutes: number,
): Promise<MinutesCharge> {
  const { options } = transcriptions;
  const { day, secondsLeft, expires } = today();
  if (options.dailyMinutes === 0) return { userId, day, minutes: 0 };
  const limit = options.dailyMinutes;
  const item = await update(transcriptions, {
    Key: minutesKey(userId, day),
    UpdateExpression: 'ADD #used :minutes SET #expires = :expires',
    ConditionExpression: 'attribute_not_exists(#used) OR #used <= :most',
    ExpressionAttributeNames: { '#used': 'used', '#expires': TABLE_TTL_ATTRIBUTE },
    ExpressionAttributeValues: {
      ':minutes': minutes,
      ':most': limit - minutes,
      ':expires': expires,
    },
  });
  if (item) return { userId, day, minutes };
  throw await exceeded(transcriptions, userId, day, minutes, secondsLeft);
}

/** Gives back minutes taken on `charge.day` (a transcription that failed on our side). */
export async function refundMinutes(
  transcriptions: TranscriptionTable,
  charge: MinutesCharge,
): Promise<void> {
  if (charge.minutes === 0) return;
  await update(transcriptions, {
    Key: minutesKey(charge.userId, charge.day),
    UpdateExpression: 'ADD #used :minus',
    ConditionExpression: '#used >= :minutes',
    ExpressionAttributeNames: { '#used': 'used' },
    ExpressionAttributeValues: { ':minus': -charge.minutes, ':minutes': charge.minutes },
  });
}

/** The 429 of a charge that did not fit, saying how many minutes are left today. */
async function exceeded(
  { db, table, options }: TranscriptionTable,
  userId: string,
  day: string,
  minutes: number,
  secondsLeft: number,
): Promise<HttpError> {
  const { Item: item } = await storeCall(() =>
    db.send(new GetCommand({ TableName: table, Key: minutesKey(userId, day) })),
  );
  const used = Number(item?.used ?? 0);
  const left = Math.max(0, options.dailyMinutes - used);
  return transcriptionBudgetExceeded(minutes, left, options.dailyMinutes, secondsLeft);
}

export type TranscriptionStore = ReturnType<typeof createTranscriptionStore>;
