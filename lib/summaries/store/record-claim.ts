// How a run of a summary starts: one conditional write claims the record (unless it is in use)
// and takes its user's quota unit in the same transaction, so identical requests sent at once
// start one run and pay one unit between them.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cancellationCodes, type DocumentTable, storeError } from '../../aws/dynamodb';
import type { Reservation } from '../../store/quota';
import { STORED_RUNNING_RECORD } from '../jobs/job-states';
import { attributeNames, type Charge, nowSeconds, WORKING_SECONDS, type Work } from './record';

/** What a run claims a record with: its work, its job and request, and the user's quota unit. */
export interface RunClaim {
  work: Work;
  jobId: string;
  requestId: string;
  charge: Reservation;
  userId: string;
}

const CLAIM_UPDATE = [
  'SET #state = :working, #work = :work, #jobs = :jobs, #stage = :queued,',
  '#partsDone = :zero, #partsTotal = :zero, #crashes = :zero, #reuseUntil = :zero,',
  '#createdAt = :now, #updatedAt = :now, #requestId = :requestId, #expires = :expires,',
  '#checkpoints = if_not_exists(#checkpoints, :empty), #chargedTo = :charge',
  'REMOVE #owner, #leaseUntil, #value, #problem',
].join(' ');

const CLAIM_CONDITION =
  'attribute_not_exists(pk) OR #state = :cancelled OR #expires < :nowSeconds OR ' +
  '((#state = :done OR #state = :failed) AND #reuseUntil <= :now)';

/**
 * Starts a run of `key` for `run.jobId` unless the record is in use (being made, or an outcome
 * still to be reused), taking the user's quota unit (`run.charge`) in the same transaction:
 * 'claimed' when this call started it, 'taken' when the record is in use, 'quota' when no unit
 * is left, 'conflict' when a concurrent write got in the way (read again and retry).
 * Checkpoints of an earlier run that failed or was cancelled are kept, so the new run continues
 * from them.
 */
export async function claimRecord(
  { db, table }: DocumentTable,
  key: string,
  run: RunClaim,
): Promise<'claimed' | 'taken' | 'quota' | 'conflict'> {
  const now = Date.now();
  const claim = {
    TableName: table,
    Key: { pk: key },
    UpdateExpression: CLAIM_UPDATE,
    ConditionExpression: CLAIM_CONDITION,
    ExpressionAttributeNames: attributeNames(CLAIM_UPDATE, CLAIM_CONDITION),
    ExpressionAttributeValues: {
      ':working': STORED_RUNNING_RECORD,
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
}
