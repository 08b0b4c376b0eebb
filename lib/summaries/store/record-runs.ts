// A worker's writes to the record of the run it makes: the lease (one worker per run, renewed
// while it works), where the run stands, a checkpoint of every finished model call, and its end
// (the summary, or the problem). Every write but taking the lease is conditioned on holding it.
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { HttpError } from '../../errors';
import type { StoredProblem } from '../../problems/codec';
import { pack } from '../../store/codec';
import { bound } from '../../util/bound';
import { STORED_RUNNING_RECORD } from '../jobs/job-states';
import type { JobStage } from '../jobs/schemas';
import type { SummarizeResponse } from '../schemas';
import type { CallResult } from '../types';
import {
  fromItem,
  type Item,
  KEEP_SECONDS,
  LeaseLostError,
  nowSeconds,
  type SummaryRecord,
  tooLarge,
} from './record';

type Update = Omit<UpdateCommandInput, 'TableName' | 'Key'>;

/** What the run's writes are made with: the record store's own reads and updates. */
export interface RunWriteTools {
  get(key: string, withCheckpoints?: boolean): Promise<SummaryRecord | undefined>;
  /** One conditional update; false when the condition does not hold. */
  update(key: string, input: Update): Promise<Item | false>;
  /** Conditions a worker's write on holding the lease. @throws LeaseLostError */
  owned(key: string, owner: string, input: Update): Promise<Item>;
  leaseMs: number;
}

/** The writes of a run's worker to its record, each bound to the record store's tools. */
export function createRunWrites(tools: RunWriteTools) {
  return {
    takeLease: bound(tools, takeLease),
    renew: bound(tools, renewLease),
    stillWanted: bound(tools, stillWanted),
    progress: bound(tools, writeProgress),
    checkpoint: bound(tools, writeCheckpoint),
    complete: bound(tools, completeRun),
    fail: bound(tools, failRun),
    release: bound(tools, releaseLease),
  };
}

/**
 * Makes `owner` the run's worker when no live worker holds it (the run's stage is then
 * `transcript`, what a worker does first). A lease that expired counts as a crash of its holder (`force` treats a held lease as expired: the local host after a
 * crash, when no other process can hold one). Returns the record with its checkpoints, or
 * why not: 'busy' (a live worker has it), 'gone' (no run under way).
 */
export async function takeLease(
  tools: RunWriteTools,
  key: string,
  owner: string,
  force = false,
): Promise<SummaryRecord | 'busy' | 'gone'> {
  const { get, update } = tools;
  const record = await get(key, true);
  if (record?.state !== 'running') return 'gone';
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
      ':until': now + tools.leaseMs,
      ':crash': held ? 1 : 0,
      ':now': now,
      ':working': STORED_RUNNING_RECORD,
      ':transcript': 'transcript',
      ...(held ? { ':previous': record.owner, ':previousLease': record.leaseUntil } : {}),
    },
  });
  if (result === false) return 'busy';
  return {
    ...record,
    owner,
    stage: 'transcript',
    leaseUntil: now + tools.leaseMs,
    crashes: record.crashes + (held ? 1 : 0),
  };
}

/**
 * Extends the lease. 'cancelled' when the run was cancelled (the worker stops), 'lost' when
 * another worker owns it now.
 */
export async function renewLease(
  tools: RunWriteTools,
  key: string,
  owner: string,
): Promise<'ok' | 'cancelled' | 'lost'> {
  const { get, update } = tools;
  const now = Date.now();
  const result = await update(key, {
    UpdateExpression: 'SET #leaseUntil = :until',
    ConditionExpression: '#owner = :me AND #state = :working',
    ExpressionAttributeValues: {
      ':until': now + tools.leaseMs,
      ':me': owner,
      ':working': STORED_RUNNING_RECORD,
    },
  });
  if (result !== false) return 'ok';
  const record = await get(key);
  return record?.owner === owner && record.state === 'cancelled' ? 'cancelled' : 'lost';
}

/** Whether the run may go on: its worker asks before every model call. */
export async function stillWanted(
  tools: RunWriteTools,
  key: string,
  owner: string,
): Promise<'ok' | 'cancelled' | 'lost'> {
  const { get } = tools;
  const record = await get(key);
  if (record?.owner !== owner) return 'lost';
  return record.state === 'running' ? 'ok' : 'cancelled';
}

/**
 * Where the run stands, and the video's title once fetched (its jobs show it while they
 * wait; in the same write, so knowing it costs the run nothing). @throws LeaseLostError
 */
export async function writeProgress(
  tools: RunWriteTools,
  key: string,
  owner: string,
  progress: { stage: JobStage; partsTotal: number; partsDone: number; title?: string },
): Promise<void> {
  const { owned } = tools;
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
}

/**
 * Keeps a finished call, and counts a finished part. A record that would grow past
 * DynamoDB's item limit keeps no more checkpoints (the run goes on without them).
 * @throws LeaseLostError
 */
export async function writeCheckpoint(
  tools: RunWriteTools,
  key: string,
  owner: string,
  callKey: string,
  call: CallResult,
  part: boolean,
): Promise<'kept' | 'too-large'> {
  const { owned } = tools;
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
}

/**
 * Ends the run with its summary, reusable for `reuseSeconds` (the cache's life), and returns
 * the jobs that waited for it. A run cancelled while its last call was answered still keeps
 * its summary: it is paid for. @throws LeaseLostError
 */
export async function completeRun(
  tools: RunWriteTools,
  key: string,
  owner: string,
  value: SummarizeResponse,
  reuseSeconds: number,
): Promise<SummaryRecord> {
  const { owned } = tools;
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
}

/**
 * Ends the run with a problem, given again to new requests for `reuseSeconds` (a verdict on
 * the video), and returns the jobs that waited. Checkpoints stay for a retry. Without
 * `owner`, ends a run no worker took yet (it could not be queued).
 * @throws LeaseLostError
 */
export async function failRun(
  tools: RunWriteTools,
  key: string,
  owner: string | undefined,
  problem: StoredProblem,
  reuseSeconds: number,
): Promise<SummaryRecord> {
  const { update, owned } = tools;
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
    ExpressionAttributeValues: {
      ...input.ExpressionAttributeValues,
      ':working': STORED_RUNNING_RECORD,
    },
  });
  if (item === false) throw new LeaseLostError(`${key} was taken by a worker`);
  return fromItem(item);
}

/** Gives the lease up without ending the run (a worker that shuts down or stops). */
export async function releaseLease(
  tools: RunWriteTools,
  key: string,
  owner: string,
): Promise<void> {
  const { update } = tools;
  await update(key, {
    UpdateExpression: 'REMOVE #owner, #leaseUntil SET #updatedAt = :now',
    ConditionExpression: '#owner = :me',
    ExpressionAttributeValues: { ':me': owner, ':now': Date.now() },
  });
}
