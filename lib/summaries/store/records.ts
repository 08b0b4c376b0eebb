// One record per summary. The item of a summary key (video, caption track, model, length,
// summary language) holds that summary's whole life in DynamoDB: whether it is being made and by
// whom (a lease a worker renews), how far it got (stage, parts, and a checkpoint of every model
// call that finished, so a retried or resumed run continues where the last one stopped), and
// its outcome (the summary, or the problem) with how long new requests may reuse it. Jobs
// are users' handles on a record: two users asking for the same summary share it.

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  ScanCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { type DocumentTable, storeError } from '../../aws/dynamodb';
import { STORED_RUNNING_RECORD } from '../jobs/job-states';
import {
  attributeNames,
  fromItem,
  type Item,
  LeaseLostError,
  nowSeconds,
  SUMMARY_ATTRIBUTES,
  type SummaryRecord,
} from './record';
import { claimRecord, type RunClaim } from './record-claim';
import { createRunWrites } from './record-runs';

// What a record is, and its key, live beside this store; their users import them from here too.
export { LeaseLostError, reusable, type SummaryRecord, type Work } from './record';
export { modelOfKey, shapeVersion, summaryKey, videoIdOfKey } from './summary-key';

export interface RecordStoreOptions {
  /** How long a lease holds without renewal. */
  leaseMs: number;
}

type RecordUpdate = Omit<UpdateCommandInput, 'TableName' | 'Key'>;

/**
 * The summary records of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createRecordStore(
  db: DynamoDBDocumentClient,
  table: string,
  options: RecordStoreOptions,
) {
  const records: DocumentTable = { db, table };
  const get = (key: string, withCheckpoints = false) => getRecord(records, key, withCheckpoints);
  const update = (key: string, input: RecordUpdate) => updateRecord(records, key, input);
  const owned = (key: string, owner: string, input: RecordUpdate) =>
    updateOwned(records, key, owner, input);
  return {
    get,
    claim: (key: string, run: RunClaim) => claimRecord(records, key, run),
    attach: (key: string, jobId: string) => attachJob(records, key, jobId),
    detach: (key: string, jobId: string) => detachJob(records, key, jobId),
    /** The job being deleted, and its user, taken off its record (forgetJob). */
    async forget(key: string, jobId: string, userId: string): Promise<void> {
      await this.detach(key, jobId);
      await forgetCharge(records, key, jobId, userId);
    },
    ...createRunWrites({ get, update, owned, leaseMs: options.leaseMs }),
    unfinished: () => unfinishedRecords(records),
  };
}

export type RecordStore = ReturnType<typeof createRecordStore>;

/** One conditional update; false when the condition does not hold. */
export async function updateRecord(
  { db, table }: DocumentTable,
  key: string,
  input: RecordUpdate,
): Promise<Item | false> {
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
}

/** Conditions a worker's write on holding the lease. @throws LeaseLostError when it does not. */
export async function updateOwned(
  records: DocumentTable,
  key: string,
  owner: string,
  input: RecordUpdate,
): Promise<Item> {
  const result = await updateRecord(records, key, {
    ...input,
    ConditionExpression: '#owner = :me',
    ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':me': owner },
  });
  if (result === false) throw new LeaseLostError(`lost the lease of ${key}`);
  return result;
}

/**
 * The record of `key`, or undefined. `withCheckpoints` reads them too (a worker's start);
 * without, the read stays small (waiting requests read it often).
 */
export async function getRecord(
  { db, table }: DocumentTable,
  key: string,
  withCheckpoints = false,
): Promise<SummaryRecord | undefined> {
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
}

/** Adds a job to a run under way: false when there is none (done, failed, cancelled). */
export async function attachJob(
  records: DocumentTable,
  key: string,
  jobId: string,
): Promise<boolean> {
  const now = Date.now();
  const result = await updateRecord(records, key, {
    UpdateExpression: 'ADD #jobs :job SET #updatedAt = :now',
    ConditionExpression: '#state = :working AND #expires >= :nowSeconds',
    ExpressionAttributeValues: {
      ':job': new Set([jobId]),
      ':now': now,
      ':working': STORED_RUNNING_RECORD,
      ':nowSeconds': nowSeconds(now),
    },
  });
  return result !== false;
}

/**
 * Takes a job off its run; when it was the last job, the run is cancelled (its worker makes
 * no further model call). True when the run was cancelled.
 */
export async function detachJob(
  records: DocumentTable,
  key: string,
  jobId: string,
): Promise<boolean> {
  const now = Date.now();
  await updateRecord(records, key, {
    UpdateExpression: 'DELETE #jobs :job SET #updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':job': new Set([jobId]), ':now': now },
  });
  const cancelled = await updateRecord(records, key, {
    UpdateExpression: 'SET #state = :cancelled, #updatedAt = :now',
    ConditionExpression: '#state = :working AND attribute_not_exists(#jobs)',
    ExpressionAttributeValues: {
      ':cancelled': 'cancelled',
      ':working': STORED_RUNNING_RECORD,
      ':now': now,
    },
  });
  return cancelled !== false;
}

/**
 * What forgetting a deleted job does after detaching it: the charge goes when this job started
 * the run (or, in a record that does not say which job did, when its user did). Afterwards the
 * record names neither; a run that then fails gives its unit back to no one. Nothing happens to
 * a record that is gone.
 */
export async function forgetCharge(
  records: DocumentTable,
  key: string,
  jobId: string,
  userId: string,
): Promise<void> {
  const ConditionExpression =
    '#chargedTo.#userId = :user AND ' +
    '(#chargedTo.#jobId = :job OR attribute_not_exists(#chargedTo.#jobId))';
  await updateRecord(records, key, {
    UpdateExpression: 'REMOVE #chargedTo',
    ConditionExpression,
    ExpressionAttributeValues: { ':user': userId, ':job': jobId },
  });
}

const UNFINISHED = '#state = :working AND begins_with(pk, :prefix)';
const UNFINISHED_ATTRIBUTES = 'pk, #state, #work, #owner, #leaseUntil, #requestId, #crashes';

/** Runs under way (read by the local host when it starts, to resume them). */
export async function unfinishedRecords({ db, table }: DocumentTable): Promise<SummaryRecord[]> {
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
          ExpressionAttributeValues: { ':working': STORED_RUNNING_RECORD, ':prefix': 'SUMMARY#' },
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
}
