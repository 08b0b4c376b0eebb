// Summary jobs: a user's handle on a summary record. One item per job, `JOB#<id>`,
// in the user's history (the jobs-by-user index, newest first). A job stays running while its
// record's run goes on; its outcome is copied into it once settled (the summary as the user
// asked for it, or the problem), so the history outlives the summary cache.

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type DocumentTable, expressionNames, storeCall, storeError } from '../../aws/dynamodb';
import { type StoredProblem, storeProblem } from '../../problems/codec';
import { pack, unpack } from '../../store/codec';
import { bound } from '../../util/bound';
import { randomId } from '../../util/random-id';
import { SummaryOutdatedError } from '../jobs/errors';
import {
  jobStateOf,
  STORED_RUNNING_JOB,
  type StoredJobState,
  storedJobState,
} from '../jobs/job-states';
import { JOB_ID_PATTERN } from '../jobs/schemas';
import type { SummarizeResponse } from '../schemas';
import type { Job, JobOutcome, JobProgress, JobRequest } from './job';
import { ownedPage, putOwned } from './job-cursor';
import { shapeVersion } from './records';

// What a job is lives beside this store; its users import it from here too.
export type { Job, JobOutcome, JobProgress, JobRequest } from './job';

const jobPk = (id: string) => `JOB#${id}`;
const ownerKey = (userId: string) => `JOBS#${userId}`;

/** The update of a settled job's title, when the run knew it. */
const titleSet = (title: string | undefined) => (title === undefined ? '' : ', #title = :title');
const titleValue = (title: string | undefined) => (title === undefined ? {} : { ':title': title });

/** A new job id: 128 random bits, URL-safe. */
export const newJobId = randomId;

interface Item {
  pk: string;
  userId: string;
  key: string;
  /** Jobs made before chapters existed have no include_chapters (they read as true). */
  request: Omit<JobRequest, 'include_chapters'> & { include_chapters?: boolean };
  status: StoredJobState;
  shared?: boolean;
  progress?: JobProgress;
  requestId: string;
  createdAt: number;
  updatedAt: number;
  result?: Uint8Array;
  shape?: string;
  problem?: StoredProblem;
  title?: string;
  collection?: string;
}

/**
 * A job as stored. A result made by an earlier version of the service (another response shape)
 * is not served as if it were this version's: the job reads as failed, summary-outdated.
 */
function fromItem(item: Item): Job {
  const job: Job = {
    id: item.pk.slice('JOB#'.length),
    userId: item.userId,
    key: item.key,
    request: { ...item.request, include_chapters: item.request.include_chapters ?? true },
    status: jobStateOf(item.status),
    shared: item.shared === true,
    requestId: item.requestId,
    createdAt: Number(item.createdAt),
    updatedAt: Number(item.updatedAt),
  };
  if (item.progress !== undefined) job.progress = item.progress;
  if (item.problem !== undefined) job.problem = item.problem;
  if (item.title !== undefined) job.title = item.title;
  if (item.collection !== undefined) job.collection = item.collection;
  if (item.result !== undefined) {
    const result =
      item.shape === shapeVersion() ? unpack<SummarizeResponse>(item.result) : undefined;
    if (result === undefined) {
      job.status = 'failed';
      job.problem = storeProblem(new SummaryOutdatedError());
    } else {
      job.result = result;
    }
  }
  return job;
}

/** A conditional update of a running job; false when it is no longer running. */
async function whilePending(
  { db, table }: DocumentTable,
  id: string,
  set: string,
  values: Record<string, unknown>,
  now = Date.now(),
): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: jobPk(id) },
        UpdateExpression: `SET ${set}, #updatedAt = :now`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: expressionNames([set, '#status #updatedAt']),
        ExpressionAttributeValues: { ...values, ':pending': STORED_RUNNING_JOB, ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw storeError(error);
  }
}

/**
 * The summary jobs of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createJobStore(db: DynamoDBDocumentClient, table: string) {
  const jobs: DocumentTable = { db, table };
  return {
    create: bound(jobs, createJob),
    get: bound(jobs, getJob),
    settle: bound(jobs, settleJobRecord),
    cancel: bound(jobs, cancelJobRecord),
    remove: bound(jobs, removeJob),
    list: bound(jobs, listJobs),
  };
}

/** Stores a new job (running, or already settled: a summary served from its record). */
export async function createJob(jobs: DocumentTable, job: Job): Promise<void> {
  const item: Item = {
    pk: jobPk(job.id),
    userId: job.userId,
    key: job.key,
    request: job.request,
    status: storedJobState(job.status),
    shared: job.shared,
    requestId: job.requestId,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    ...(job.progress ? { progress: job.progress } : {}),
    ...(job.result ? { result: pack(job.result), shape: shapeVersion() } : {}),
    ...(job.problem ? { problem: job.problem } : {}),
    ...(job.collection ? { collection: job.collection } : {}),
  };
  await putOwned(jobs, item, { owner: ownerKey(job.userId), id: job.id, createdAt: job.createdAt });
}

/** The job with this id, or undefined (whoever owns it: callers check). */
export async function getJob(jobs: DocumentTable, id: string): Promise<Job | undefined> {
  const { db, table } = jobs;
  if (!JOB_ID_PATTERN.test(id)) return undefined;
  const { Item } = await storeCall(() =>
    db.send(new GetCommand({ TableName: table, Key: { pk: jobPk(id) }, ConsistentRead: true })),
  );
  return Item ? fromItem(Item as Item) : undefined;
}

/**
 * Settles a pending job with its summary's outcome, as updated at `now`; false when it was
 * not pending.
 */
export async function settleJobRecord(
  jobs: DocumentTable,
  id: string,
  outcome: JobOutcome,
  now = Date.now(),
): Promise<boolean> {
  return outcome.status === 'done'
    ? whilePending(
        jobs,
        id,
        '#status = :done, #progress = :progress, #result = :result, #shape = :shape',
        {
          ':done': 'done',
          ':progress': outcome.progress,
          ':result': pack(outcome.result),
          ':shape': shapeVersion(),
        },
        now,
      )
    : whilePending(
        jobs,
        id,
        `#status = :failed, #progress = :progress, #problem = :problem${titleSet(outcome.title)}`,
        {
          ':failed': 'failed',
          ':progress': outcome.progress,
          ':problem': outcome.problem,
          ...titleValue(outcome.title),
        },
        now,
      );
}

/** Marks a running job cancelled (keeping the video's title if known); false when it was not running. */
export async function cancelJobRecord(
  jobs: DocumentTable,
  id: string,
  progress: JobProgress,
  title?: string,
): Promise<boolean> {
  return whilePending(jobs, id, `#status = :cancelled, #progress = :progress${titleSet(title)}`, {
    ':cancelled': 'cancelled',
    ':progress': progress,
    ...titleValue(title),
  });
}

/** Removes a job from its user's history. */
export async function removeJob(jobs: DocumentTable, id: string): Promise<void> {
  const { db, table } = jobs;
  await storeCall(() => db.send(new DeleteCommand({ TableName: table, Key: { pk: jobPk(id) } })));
}

/**
 * A page of a user's jobs, newest first, and the cursor of the next page (null on the last).
 * Read from an index, so a job created a moment ago may be missing for a moment.
 * @throws ValidationError for a cursor this store did not give.
 */
export async function listJobs(
  jobs: DocumentTable,
  userId: string,
  page: { limit: number; cursor?: string },
): Promise<{ jobs: Job[]; next: string | null }> {
  const { db, table } = jobs;
  const { items, next } = await ownedPage(db, table, {
    owner: ownerKey(userId),
    pkOf: jobPk,
    ...page,
  });
  return { jobs: items.map((item) => fromItem(item as unknown as Item)), next };
}

export type JobStore = ReturnType<typeof createJobStore>;
