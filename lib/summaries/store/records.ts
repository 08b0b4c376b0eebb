// One record per summary. The item of a summary key (video, caption track, model, length,
// summary language) holds that summary's whole life in DynamoDB: whether it is being made and by
// whom (a lease a worker renews), how far it got (stage, parts, and a checkpoint of every model
// call that finished, so a retried or resumed run continues where the last one stopped), and
// its outcome (the summary, or the problem) with how long new requests may reuse it. Jobs
// (jobs.ts) are users' handles on a record: two users asking for the same summary share it.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { cancellationCodes, expressionNames, storeError } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import { HttpError } from '../../errors';
import type { StoredProblem } from '../../problems';
import { schemaVersion } from '../../schema-version';
import type { RecordState } from '../job-states';
import { type JobStage, type SummarizeResponse, summarizeResponseSchema } from '../schemas';
import type { CallResult } from '../types';
import { pack, unpack } from './codec';
import type { Reservation } from './quota';

/** What a record's summary is made of: the request's fields that change the summary. */
export interface Work {
  videoId: string;
  /** The caption language asked for; absent: the default track choice. */
  language?: string;
  /** The catalog name of the model. */
  model: string;
  /** Target words. */
  length: number;
  /** The language to write in; absent: the transcript's. */
  summaryLanguage?: string;
}

/**
 * Who pays for a run: the user whose job started it (that job: absent in records written before
 * it was kept), and the UTC day the unit was taken. It goes when that job is deleted
 * (forget): no record names a user whose jobs are gone, and a failed run gives the unit back to
 * no one.
 */
export interface Charge {
  userId: string;
  day: string;
  jobId?: string;
}

export interface SummaryRecord {
  key: string;
  state: RecordState;
  work: Work;
  stage: JobStage;
  partsDone: number;
  partsTotal: number;
  /** Jobs that wait for this run (cancelling the last one cancels the run). */
  jobs: string[];
  /** The worker that holds the lease, and until when (epoch ms). */
  owner?: string;
  leaseUntil?: number;
  /** Runs of this summary whose worker vanished without a word (crashed, killed, timed out). */
  crashes: number;
  /** Until when (epoch ms) new requests get this record's outcome instead of a new run. */
  reuseUntil: number;
  /** When DynamoDB may delete the record (epoch s): a run older than this is abandoned. */
  expiresAt: number;
  /** When the current run was asked for, and last changed (epoch ms). */
  createdAt: number;
  updatedAt: number;
  /** The request that asked for the current run (its id is in every log line of the run). */
  requestId: string;
  chargedTo?: Charge;
  problem?: StoredProblem;
  /** The video's title, once a run has fetched the video (its jobs show it while they wait). */
  title?: string;
  /** The summary, once done. */
  value?: SummarizeResponse;
  /** Finished calls of this and earlier runs, by call key (only when read for a run). */
  checkpoints?: Map<string, CallResult>;
}

/** Thrown by a worker's writes when its lease is gone (another worker owns the run now). */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

// Set by the Lambda bundles (infra/bundling.ts): shapeVersion() as computed when they were built.
declare const __SUMMARY_SHAPE_VERSION__: string | undefined;

/**
 * The version part of every summary key, derived from the response schema itself: change the
 * shape of a summary and older records are no longer found (they expire by their TTL) instead
 * of being served in a shape the contract no longer describes. Built into a Lambda bundle,
 * otherwise computed once, on first use (lib/schema-version.ts).
 */
export const shapeVersion = (() => {
  let version: string | undefined;
  return () => {
    version ??=
      typeof __SUMMARY_SHAPE_VERSION__ === 'string'
        ? __SUMMARY_SHAPE_VERSION__
        : schemaVersion(summarizeResponseSchema);
    return version;
  };
})();

/** The key of a summary: one record per key. */
export function summaryKey(work: Work): string {
  const track = work.language?.toLowerCase() ?? '*';
  const written = work.summaryLanguage?.toLowerCase() ?? '*';
  return `SUMMARY#${shapeVersion()}#${work.videoId}#${track}#${work.model}#${work.length}#${written}`;
}

/** summaryKey's parts (no part before the model holds a `#`), or undefined for another key. */
function partsOfKey(key: string): string[] | undefined {
  const parts = key.split('#');
  return parts[0] === 'SUMMARY' && parts.length === 7 ? parts : undefined;
}

/** The model a summary key was made for, or undefined for a key of another shape. */
export const modelOfKey = (key: string): string | undefined => partsOfKey(key)?.[4];

/** The video a summary key was made for, or undefined for a key of another shape. */
export const videoIdOfKey = (key: string): string | undefined => partsOfKey(key)?.[2];

/** How a record may be used by a new request at `now` (epoch ms). */
export function reusable(
  record: SummaryRecord | undefined,
  now = Date.now(),
): 'done' | 'failed' | 'working' | 'free' {
  if (!record) return 'free';
  if (record.state === 'working') return record.expiresAt * 1000 > now ? 'working' : 'free';
  if ((record.state === 'done' || record.state === 'failed') && record.reuseUntil > now) {
    return record.state;
  }
  return 'free';
}

export interface RecordStoreOptions {
  /** How long a lease holds without renewal. */
  leaseMs: number;
}

/** How long a record stays after its run ended: a day, for jobs to read their outcome. */
const KEEP_SECONDS = 86_400;
/** A run may take long (a laptop's model, a day's budget): its record is kept two days. */
const WORKING_SECONDS = 2 * 86_400;

/** Every attribute is `#name` in expressions; `#expires` is the table's TTL attribute. */
const attributeNames = (...expressions: (string | undefined)[]) =>
  expressionNames(expressions, { '#expires': TABLE_TTL_ATTRIBUTE });

/** What a record read without its checkpoints holds. */
const SUMMARY_ATTRIBUTES =
  'pk, #state, #work, #stage, #partsDone, #partsTotal, #jobs, #owner, #leaseUntil, #crashes, ' +
  '#reuseUntil, #expires, #createdAt, #updatedAt, #requestId, #chargedTo, #problem, #title, #value';

const nowSeconds = (now = Date.now()) => Math.floor(now / 1000);

interface Item {
  pk: string;
  state: RecordState;
  work: Work;
  stage?: JobStage;
  partsDone?: number;
  partsTotal?: number;
  jobs?: Set<string>;
  owner?: string;
  leaseUntil?: number;
  crashes?: number;
  reuseUntil?: number;
  expiresAt?: number;
  createdAt?: number;
  updatedAt?: number;
  requestId?: string;
  chargedTo?: Charge;
  problem?: StoredProblem;
  title?: string;
  value?: Uint8Array;
  checkpoints?: Record<string, Uint8Array>;
}

function fromItem(item: Item): SummaryRecord {
  const record: SummaryRecord = {
    key: item.pk,
    state: item.state,
    work: item.work,
    stage: item.stage ?? 'queued',
    partsDone: Number(item.partsDone ?? 0),
    partsTotal: Number(item.partsTotal ?? 0),
    jobs: [...(item.jobs ?? [])],
    crashes: Number(item.crashes ?? 0),
    reuseUntil: Number(item.reuseUntil ?? 0),
    expiresAt: Number(item.expiresAt ?? 0),
    createdAt: Number(item.createdAt ?? 0),
    updatedAt: Number(item.updatedAt ?? 0),
    requestId: item.requestId ?? '-',
  };
  if (item.owner !== undefined) record.owner = item.owner;
  if (item.leaseUntil !== undefined) record.leaseUntil = Number(item.leaseUntil);
  if (item.chargedTo !== undefined) record.chargedTo = item.chargedTo;
  if (item.problem !== undefined) record.problem = item.problem;
  if (item.title !== undefined) record.title = item.title;
  if (item.value !== undefined) {
    const value = unpack<SummarizeResponse>(item.value);
    if (value !== undefined) record.value = value;
  }
  if (item.checkpoints !== undefined) {
    record.checkpoints = new Map();
    for (const [key, packed] of Object.entries(item.checkpoints)) {
      const call = unpack<CallResult>(packed);
      if (call !== undefined) record.checkpoints.set(key, call);
    }
  }
  return record;
}

/** A record's DynamoDB item is too large (checkpoints of a huge plan): 400 KB is the limit. */
function tooLarge(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'ValidationException' &&
    /size has exceeded|item size/i.test(error.message)
  );
}

/**
 * The summary records of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createRecordStore(
  db: DynamoDBDocumentClient,
  table: string,
  options: RecordStoreOptions,
) {
  /** One conditional update; false when the condition does not hold. */
  const update = async (
    key: string,
    input: Omit<UpdateCommandInput, 'TableName' | 'Key'>,
  ): Promise<Item | false> => {
    const names = {
      ...attributeNames(input.UpdateExpression, input.ConditionExpression),
      ...input.ExpressionAttributeNames,
    };
    try {
      const output = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: key },
          ...input,
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        }),
      );
      return (output.Attributes ?? { pk: key }) as Item;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw storeError(error);
    }
  };

  /** Conditions a worker's write on holding the lease. */
  const owned = async (
    key: string,
    owner: string,
    input: Omit<UpdateCommandInput, 'TableName' | 'Key'>,
  ): Promise<Item> => {
    const result = await update(key, {
      ...input,
      ConditionExpression: '#owner = :me',
      ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':me': owner },
    });
    if (result === false) throw new LeaseLostError(`lost the lease of ${key}`);
    return result;
  };

  return {
    /**
     * The record of `key`, or undefined. `withCheckpoints` reads them too (a worker's start);
     * without, the read stays small (waiting requests read it often).
     */
    async get(key: string, withCheckpoints = false): Promise<SummaryRecord | undefined> {
      try {
        const { Item } = await db.send(
          new GetCommand({
            TableName: table,
            Key: { pk: key },
            ConsistentRead: true,
            ...(withCheckpoints
              ? {}
              : {
                  ProjectionExpression: SUMMARY_ATTRIBUTES,
                  ExpressionAttributeNames: attributeNames(SUMMARY_ATTRIBUTES),
                }),
          }),
        );
        return Item ? fromItem(Item as Item) : undefined;
      } catch (error) {
        throw storeError(error);
      }
    },

    /**
     * Starts a run of `key` for `jobId` unless the record is in use (being made, or an outcome
     * still to be reused), taking the user's quota unit (`charge`) in the same transaction:
     * 'claimed' when this call started it, 'taken' when the record is in use, 'quota' when no
     * unit is left, 'conflict' when a concurrent write got in the way (read again and retry).
     * Checkpoints of an earlier run that failed or was cancelled are kept, so the new run
     * continues from them.
     */
    async claim(
      key: string,
      run: { work: Work; jobId: string; requestId: string; charge: Reservation; userId: string },
    ): Promise<'claimed' | 'taken' | 'quota' | 'conflict'> {
      const now = Date.now();
      const UpdateExpression = [
        'SET #state = :working, #work = :work, #jobs = :jobs, #stage = :queued,',
        '#partsDone = :zero, #partsTotal = :zero, #crashes = :zero, #reuseUntil = :zero,',
        '#createdAt = :now, #updatedAt = :now, #requestId = :requestId, #expires = :expires,',
        '#checkpoints = if_not_exists(#checkpoints, :empty), #chargedTo = :charge',
        'REMOVE #owner, #leaseUntil, #value, #problem',
      ].join(' ');
      const ConditionExpression =
        'attribute_not_exists(pk) OR #state = :cancelled OR #expires < :nowSeconds OR ' +
        '((#state = :done OR #state = :failed) AND #reuseUntil <= :now)';
      const claim = {
        TableName: table,
        Key: { pk: key },
        UpdateExpression,
        ConditionExpression,
        ExpressionAttributeNames: attributeNames(UpdateExpression, ConditionExpression),
        ExpressionAttributeValues: {
          ':working': 'working',
          ':cancelled': 'cancelled',
          ':done': 'done',
          ':failed': 'failed',
          ':work': run.work,
          ':jobs': new Set([run.jobId]),
          ':queued': 'queued',
          ':zero': 0,
          ':now': now,
          ':nowSeconds': nowSeconds(now),
          ':requestId': run.requestId,
          ':expires': nowSeconds(now) + WORKING_SECONDS,
          ':empty': {},
          // Kept whether or not the quota counts: with no limit, giving back is a no-op.
          ':charge': { userId: run.userId, day: run.charge.day, jobId: run.jobId } satisfies Charge,
        },
      };
      try {
        if (run.charge.update === undefined) {
          await db.send(new UpdateCommand(claim));
        } else {
          await db.send(
            new TransactWriteCommand({
              TransactItems: [{ Update: claim }, { Update: run.charge.update }],
            }),
          );
        }
        return 'claimed';
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return 'taken';
        const codes = cancellationCodes(error);
        if (codes?.[0] === 'ConditionalCheckFailed') return 'taken';
        if (codes?.[1] === 'ConditionalCheckFailed') return 'quota';
        if (codes?.includes('TransactionConflict')) return 'conflict';
        throw storeError(error);
      }
    },

    /** Adds a job to a run under way: false when there is none (done, failed, cancelled). */
    async attach(key: string, jobId: string): Promise<boolean> {
      const now = Date.now();
      const result = await update(key, {
        UpdateExpression: 'ADD #jobs :job SET #updatedAt = :now',
        ConditionExpression: '#state = :working AND #expires >= :nowSeconds',
        ExpressionAttributeValues: {
          ':job': new Set([jobId]),
          ':now': now,
          ':working': 'working',
          ':nowSeconds': nowSeconds(now),
        },
      });
      return result !== false;
    },

    /**
     * Takes a job off its run; when it was the last job, the run is cancelled (its worker makes
     * no further model call). True when the run was cancelled.
     */
    async detach(key: string, jobId: string): Promise<boolean> {
      const now = Date.now();
      await update(key, {
        UpdateExpression: 'DELETE #jobs :job SET #updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':job': new Set([jobId]), ':now': now },
      });
      const cancelled = await update(key, {
        UpdateExpression: 'SET #state = :cancelled, #updatedAt = :now',
        ConditionExpression: '#state = :working AND attribute_not_exists(#jobs)',
        ExpressionAttributeValues: {
          ':cancelled': 'cancelled',
          ':working': 'working',
          ':now': now,
        },
      });
      return cancelled !== false;
    },

    /**
     * Takes a job that is being deleted, and its user, off its record: the job leaves the run
     * (detach: the run is cancelled when it was the last job waiting), and the charge goes when
     * this job started the run (or, in a record that does not say which job did, when its user
     * did). Afterwards the record names neither; a run that then fails gives its unit back to no
     * one. Nothing happens to a record that is gone.
     */
    async forget(key: string, jobId: string, userId: string): Promise<void> {
      await this.detach(key, jobId);
      const ConditionExpression =
        '#chargedTo.#userId = :user AND ' +
        '(#chargedTo.#jobId = :job OR attribute_not_exists(#chargedTo.#jobId))';
      await update(key, {
        UpdateExpression: 'REMOVE #chargedTo',
        ConditionExpression,
        ExpressionAttributeValues: { ':user': userId, ':job': jobId },
      });
    },

    /**
     * Makes `owner` the run's worker when no live worker holds it (the run's stage is then
     * `transcript`, what a worker does first). A lease that expired counts as a crash of its holder (`force` treats a held lease as expired: the local host after a
     * crash, when no other process can hold one). Returns the record with its checkpoints, or
     * why not: 'busy' (a live worker has it), 'gone' (no run under way).
     */
    async takeLease(
      key: string,
      owner: string,
      force = false,
    ): Promise<SummaryRecord | 'busy' | 'gone'> {
      const record = await this.get(key, true);
      if (record?.state !== 'working') return 'gone';
      const now = Date.now();
      const held = record.owner !== undefined;
      if (held && !force && (record.leaseUntil ?? 0) > now) return 'busy';
      const result = await update(key, {
        UpdateExpression:
          'SET #owner = :me, #leaseUntil = :until, #crashes = #crashes + :crash, #updatedAt = :now, ' +
          '#stage = :transcript',
        ConditionExpression: held
          ? '#state = :working AND #owner = :previous AND #leaseUntil = :previousLease'
          : '#state = :working AND attribute_not_exists(#owner)',
        ExpressionAttributeValues: {
          ':me': owner,
          ':until': now + options.leaseMs,
          ':crash': held ? 1 : 0,
          ':now': now,
          ':working': 'working',
          ':transcript': 'transcript',
          ...(held ? { ':previous': record.owner, ':previousLease': record.leaseUntil } : {}),
        },
      });
      if (result === false) return 'busy';
      return {
        ...record,
        owner,
        stage: 'transcript',
        leaseUntil: now + options.leaseMs,
        crashes: record.crashes + (held ? 1 : 0),
      };
    },

    /**
     * Extends the lease. 'cancelled' when the run was cancelled (the worker stops), 'lost' when
     * another worker owns it now.
     */
    async renew(key: string, owner: string): Promise<'ok' | 'cancelled' | 'lost'> {
      const now = Date.now();
      const result = await update(key, {
        UpdateExpression: 'SET #leaseUntil = :until',
        ConditionExpression: '#owner = :me AND #state = :working',
        ExpressionAttributeValues: {
          ':until': now + options.leaseMs,
          ':me': owner,
          ':working': 'working',
        },
      });
      if (result !== false) return 'ok';
      const record = await this.get(key);
      return record?.owner === owner && record.state === 'cancelled' ? 'cancelled' : 'lost';
    },

    /** Whether the run may go on: its worker asks before every model call. */
    async stillWanted(key: string, owner: string): Promise<'ok' | 'cancelled' | 'lost'> {
      const record = await this.get(key);
      if (record?.owner !== owner) return 'lost';
      return record.state === 'working' ? 'ok' : 'cancelled';
    },

    /**
     * Where the run stands, and the video's title once fetched (its jobs show it while they
     * wait; in the same write, so knowing it costs the run nothing). @throws LeaseLostError
     */
    async progress(
      key: string,
      owner: string,
      progress: { stage: JobStage; partsTotal: number; partsDone: number; title?: string },
    ): Promise<void> {
      const title = progress.title === undefined ? {} : { ':title': progress.title };
      await owned(key, owner, {
        UpdateExpression:
          'SET #stage = :stage, #partsTotal = :total, #partsDone = :done, #updatedAt = :now' +
          (progress.title === undefined ? '' : ', #title = :title'),
        ExpressionAttributeValues: {
          ':stage': progress.stage,
          ':total': progress.partsTotal,
          ':done': progress.partsDone,
          ':now': Date.now(),
          ...title,
        },
      });
    },

    /**
     * Keeps a finished call, and counts a finished part. A record that would grow past
     * DynamoDB's item limit keeps no more checkpoints (the run goes on without them).
     * @throws LeaseLostError
     */
    async checkpoint(
      key: string,
      owner: string,
      callKey: string,
      call: CallResult,
      part: boolean,
    ): Promise<'kept' | 'too-large'> {
      const input = {
        UpdateExpression: `SET #checkpoints.#call = :call, #updatedAt = :now${part ? ' ADD #partsDone :one' : ''}`,
        ExpressionAttributeNames: { '#call': callKey },
        ExpressionAttributeValues: {
          ':call': pack(call),
          ':now': Date.now(),
          ...(part ? { ':one': 1 } : {}),
        },
      };
      try {
        await owned(key, owner, input);
        return 'kept';
      } catch (error) {
        const cause = error instanceof HttpError ? error.cause : error;
        if (!tooLarge(cause)) throw error;
        if (part) {
          await owned(key, owner, {
            UpdateExpression: 'SET #updatedAt = :now ADD #partsDone :one',
            ExpressionAttributeValues: { ':now': Date.now(), ':one': 1 },
          });
        }
        return 'too-large';
      }
    },

    /**
     * Ends the run with its summary, reusable for `reuseSeconds` (the cache's life), and returns
     * the jobs that waited for it. A run cancelled while its last call was answered still keeps
     * its summary: it is paid for. @throws LeaseLostError
     */
    async complete(
      key: string,
      owner: string,
      value: SummarizeResponse,
      reuseSeconds: number,
    ): Promise<SummaryRecord> {
      const now = Date.now();
      const item = await owned(key, owner, {
        UpdateExpression:
          'SET #state = :done, #stage = :done, #partsDone = :parts, #partsTotal = :parts, ' +
          '#value = :value, ' +
          '#reuseUntil = :reuse, #expires = :expires, #updatedAt = :now ' +
          'REMOVE #owner, #leaseUntil, #checkpoints, #problem',
        ExpressionAttributeValues: {
          ':done': 'done',
          // All parts done: as many as the summary says it was made of.
          ':parts': value.metadata.chunks,
          ':value': pack(value),
          ':reuse': now + reuseSeconds * 1000,
          ':expires': nowSeconds(now) + Math.max(reuseSeconds, KEEP_SECONDS),
          ':now': now,
        },
        ReturnValues: 'ALL_NEW',
      });
      return fromItem(item);
    },

    /**
     * Ends the run with a problem, given again to new requests for `reuseSeconds` (a verdict on
     * the video), and returns the jobs that waited. Checkpoints stay for a retry. Without
     * `owner`, ends a run no worker took yet (it could not be queued).
     * @throws LeaseLostError
     */
    async fail(
      key: string,
      owner: string | undefined,
      problem: StoredProblem,
      reuseSeconds: number,
    ): Promise<SummaryRecord> {
      const now = Date.now();
      const input = {
        UpdateExpression:
          'SET #state = :failed, #problem = :problem, #reuseUntil = :reuse, #expires = :expires, ' +
          '#updatedAt = :now REMOVE #owner, #leaseUntil',
        ExpressionAttributeValues: {
          ':failed': 'failed',
          ':problem': problem,
          ':reuse': now + reuseSeconds * 1000,
          ':expires': nowSeconds(now) + KEEP_SECONDS,
          ':now': now,
        },
        ReturnValues: 'ALL_NEW' as const,
      };
      if (owner !== undefined) return fromItem(await owned(key, owner, input));
      const item = await update(key, {
        ...input,
        ConditionExpression: '#state = :working AND attribute_not_exists(#owner)',
        ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':working': 'working' },
      });
      if (item === false) throw new LeaseLostError(`${key} was taken by a worker`);
      return fromItem(item);
    },

    /** Gives the lease up without ending the run (a worker that shuts down or stops). */
    async release(key: string, owner: string): Promise<void> {
      await update(key, {
        UpdateExpression: 'REMOVE #owner, #leaseUntil SET #updatedAt = :now',
        ConditionExpression: '#owner = :me',
        ExpressionAttributeValues: { ':me': owner, ':now': Date.now() },
      });
    },

    /** Runs under way (read by the local host when it starts, to resume them). */
    async unfinished(): Promise<SummaryRecord[]> {
      const UNFINISHED = '#state = :working AND begins_with(pk, :prefix)';
      const UNFINISHED_ATTRIBUTES = 'pk, #state, #work, #owner, #leaseUntil, #requestId, #crashes';
      const found: SummaryRecord[] = [];
      let start: Record<string, unknown> | undefined;
      try {
        do {
          const page = await db.send(
            new ScanCommand({
              TableName: table,
              FilterExpression: UNFINISHED,
              ProjectionExpression: UNFINISHED_ATTRIBUTES,
              ExpressionAttributeNames: attributeNames(UNFINISHED, UNFINISHED_ATTRIBUTES),
              ExpressionAttributeValues: { ':working': 'working', ':prefix': 'SUMMARY#' },
              ...(start ? { ExclusiveStartKey: start } : {}),
            }),
          );
          for (const item of page.Items ?? []) found.push(fromItem(item as Item));
          start = page.LastEvaluatedKey;
        } while (start);
      } catch (error) {
        throw storeError(error);
      }
      return found;
    },
  };
}

export type RecordStore = ReturnType<typeof createRecordStore>;
