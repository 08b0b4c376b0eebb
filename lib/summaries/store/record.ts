// What one summary record is: the life of one summary, as the store reads it,
// and how a new request may use it.
import { expressionNames } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import type { StoredProblem } from '../../problems/codec';
import { unpack } from '../../store/codec';
import { type RecordState, recordStateOf, type StoredRecordState } from '../jobs/job-states';
import type { JobStage } from '../jobs/schemas';
import type { SummarizeResponse } from '../schemas';
import type { CallResult } from '../types';

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

/** How a record may be used by a new request at `now` (epoch ms). */
export function reusable(
  record: SummaryRecord | undefined,
  now = Date.now(),
): 'done' | 'failed' | 'running' | 'free' {
  if (!record) return 'free';
  if (record.state === 'running') return record.expiresAt * 1000 > now ? 'running' : 'free';
  if ((record.state === 'done' || record.state === 'failed') && record.reuseUntil > now) {
    return record.state;
  }
  return 'free';
}

/** How long a record stays after its run ended: a day, for jobs to read their outcome. */
export const KEEP_SECONDS = 86_400;
/** A run may take long (a laptop's model, a day's budget): its record is kept two days. */
export const WORKING_SECONDS = 2 * 86_400;

/** Every attribute is `#name` in expressions; `#expires` is the table's TTL attribute. */
export const attributeNames = (...expressions: (string | undefined)[]) =>
  expressionNames(expressions, { '#expires': TABLE_TTL_ATTRIBUTE });

/** What a record read without its checkpoints holds. */
export const SUMMARY_ATTRIBUTES =
  'pk, #state, #work, #stage, #partsDone, #partsTotal, #jobs, #owner, #leaseUntil, #crashes, ' +
  '#reuseUntil, #expires, #createdAt, #updatedAt, #requestId, #chargedTo, #problem, #title, #value';

export const nowSeconds = (now = Date.now()) => Math.floor(now / 1000);

export interface Item {
  pk: string;
  state: StoredRecordState;
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

export function fromItem(item: Item): SummaryRecord {
  const record: SummaryRecord = {
    key: item.pk,
    state: recordStateOf(item.state),
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
export function tooLarge(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'ValidationException' &&
    /size has exceeded|item size/i.test(error.message)
  );
}
