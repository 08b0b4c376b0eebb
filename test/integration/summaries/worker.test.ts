// The summary worker against DynamoDB Local, with the real record and job stores: one worker per
// run whatever SQS delivers twice, a run whose workers keep vanishing ends failed instead of
// looping, and a worker that lost its lease writes nothing more.
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../../infra/local/table';
import { createDocumentClient } from '../../../lib/aws/dynamodb';
import type { Config } from '../../../lib/config';
import { HttpError, ServiceUnavailableError } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import { createCache } from '../../../lib/store/cache';
import { createQuota, type Quota } from '../../../lib/store/quota';
import { NO_CHAPTERS } from '../../../lib/summaries/chapters/chapter';
import { createSummaryWorker, MAX_CRASHES } from '../../../lib/summaries/jobs/worker';
import { buildCatalog } from '../../../lib/summaries/offer';
import { createJobStore, newJobId } from '../../../lib/summaries/store/jobs';
import {
  createRecordStore,
  LeaseLostError,
  reusable,
  summaryKey,
  type Work,
} from '../../../lib/summaries/store/records';
import type { Summarizer } from '../../../lib/summaries/types';
import type { Video } from '../../../lib/youtube/types';
import { testConfig } from '../../support/host';
import { loadSharedMetadata, loadSharedTranscript } from '../../support/transcripts';

let config: Config;
let db: DynamoDBDocumentClient;
const LEASE_MS = 300;

beforeAll(async () => {
  config = testConfig();
  db = createDocumentClient(config);
  await ensureTable(db as never, config.TABLE_NAME);
});
afterAll(() => db?.destroy());

const silent: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const video: Video = {
  metadata: loadSharedMetadata(),
  transcript: loadSharedTranscript(),
  client: 'ANDROID',
  source: 'captions',
};

/** A worker over the real stores, whose summarizer takes `ms` (then throws `error`, if given)
 * and counts its calls; `gate`, when given, holds the summarizer until it settles; `quota` is
 * the quota units are given back to (unlimited: none); `leaseMs` its lease (LEASE_MS). */
function worker(
  ms = 0,
  error?: Error,
  {
    gate,
    quota,
    leaseMs = LEASE_MS,
  }: { gate?: Promise<void>; quota?: Quota; leaseMs?: number } = {},
) {
  const records = createRecordStore(db, config.TABLE_NAME, { leaseMs });
  const jobs = createJobStore(db, config.TABLE_NAME);
  const calls = { count: 0 };
  const summarizer: Summarizer = {
    async summarize() {
      calls.count++;
      await new Promise((resolve) => setTimeout(resolve, ms));
      await gate;
      if (error) throw error;
      return {
        summary: 'A summary.',
        keyPoints: [],
        chapters: NO_CHAPTERS,
        chunks: 1,
        inputTokens: null,
        outputTokens: null,
      };
    },
  };
  const run = createSummaryWorker({
    records,
    jobs,
    videos: createCache<Video>(db, config.TABLE_NAME, 0),
    quota: quota ?? createQuota(db, config.TABLE_NAME, 0),
    youtube: async () => ({ lookUpVideo: async () => ({ kind: 'video' as const, video }) }),
    captionless: async (found) => {
      throw found.problem;
    },
    catalog: buildCatalog(),
    summarizer: async () => summarizer,
    logger: silent,
    reuseSeconds: 3_600,
    renewEveryMs: leaseMs / 3,
  });
  return { ...run, records, jobs, calls };
}

/** A new run of a summary no other test uses, with its job, paid by `payer` from `quota`;
 * returns its key and job id. */
async function newRun(
  records: ReturnType<typeof worker>['records'],
  payer = 'someone',
  quota = createQuota(db, config.TABLE_NAME, 0),
) {
  const work: Work = {
    videoId: 'py5byOOHZM8',
    model: 'extractive',
    length: 1_000 + Math.floor(Math.random() * 1e6),
  };
  const key = summaryKey(work);
  const jobId = newJobId();
  const claimed = await records.claim(key, {
    work,
    jobId,
    requestId: randomUUID(),
    charge: quota.reservation(payer),
    userId: payer,
  });
  expect(claimed).toBe('claimed');
  return { key, jobId };
}

const budget = () => ({ signal: AbortSignal.timeout(30_000), endsAt: Date.now() + 30_000 });

it('makes a summary once when the same message is delivered twice at once', async () => {
  // A lease no busy machine lets lapse while the first run works: only the lease guards here.
  const first = worker(500, undefined, { leaseMs: 30_000 });
  const second = worker(500, undefined, { leaseMs: 30_000 });
  const { key } = await newRun(first.records);
  const message = { key, request_id: 'req-twice' };

  const outcomes = await Promise.all([first.run(message, budget()), second.run(message, budget())]);

  expect(outcomes.sort()).toEqual(['busy', 'done']);
  expect(first.calls.count + second.calls.count).toBe(1);
  expect((await first.records.get(key))?.state).toBe('done');
});

/** A user's pending job on the run under `key`. */
function pendingJob(jobs: ReturnType<typeof worker>['jobs'], key: string, jobId: string) {
  return jobs.create({
    id: jobId,
    userId: 'someone',
    key,
    request: {
      video_url: 'py5byOOHZM8',
      summary_length: 1,
      used_model: 'extractive',
      include_key_points: true,
      include_chapters: true,
    },
    status: 'running',
    shared: false,
    requestId: 'req-crash',
    createdAt: Date.now(),
    updatedAt: Date.now(),
  });
}

it('fails a run whose workers vanished MAX_CRASHES times, with a 500 its jobs show', async () => {
  const { records, jobs, run, calls } = worker();
  const { key, jobId } = await newRun(records);
  await pendingJob(jobs, key, jobId);
  // Workers that take the run and vanish: each next one finds an expired lease.
  for (let i = 0; i <= MAX_CRASHES - 1; i++) {
    expect(typeof (await records.takeLease(key, `vanished-${i}`))).toBe('object');
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 50));
  }

  const outcome = await run({ key, request_id: 'req-crash' }, budget());
  const record = await records.get(key);
  const job = await jobs.get(jobId);

  expect(outcome).toBe('failed');
  expect(calls.count).toBe(0);
  expect(record?.crashes).toBe(MAX_CRASHES);
  expect(record?.problem).toMatchObject({ status: 500, type: 'internal-error' });
  expect(job).toMatchObject({ status: 'failed', problem: { status: 500 } });
});

it('refuses every write of a worker whose lease another took over', async () => {
  const { records } = worker();
  const { key } = await newRun(records);
  await records.takeLease(key, 'first');

  const taken = await records.takeLease(key, 'second', true);
  const write = records.checkpoint(key, 'first', 'p-1', { summary: 'x', keyPoints: [] }, true);

  expect(typeof taken).toBe('object');
  await expect(write).rejects.toBeInstanceOf(LeaseLostError);
  await expect(
    records.progress(key, 'first', { stage: 'combining', partsTotal: 2, partsDone: 2 }),
  ).rejects.toBeInstanceOf(LeaseLostError);
  expect((await records.get(key))?.owner).toBe('second');
});

it('gives a failed run’s unit back to the user it charges when it fails, and to no one taken off it meanwhile (a deleted account)', async () => {
  const quota = createQuota(db, config.TABLE_NAME, 5);
  const failure = new HttpError(503, 'model-unavailable', 'Service unavailable');
  /** The units the user has used today. */
  const used = async (userId: string) => {
    const day = new Date().toISOString().slice(0, 10);
    const { Item } = await db.send(
      new GetCommand({ TableName: config.TABLE_NAME, Key: { pk: `QUOTA#${userId}#${day}` } }),
    );
    return Item?.used;
  };
  const outcomes: { forgotten: boolean; outcome: string; used: unknown }[] = [];

  for (const forgotten of [false, true]) {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { records, run } = worker(0, failure, { gate, quota });
    const payer = `payer-${randomUUID()}`;
    const { key, jobId } = await newRun(records, payer, quota);
    // Another user's job waits for the same run: it goes on without the payer's.
    expect(await records.attach(key, newJobId())).toBe(true);

    const running = run({ key, request_id: 'req-refund' }, budget());
    // While the summarizer works, the payer's account is deleted: their job leaves the record.
    if (forgotten) await records.forget(key, jobId, payer);
    open();
    const outcome = await running;

    outcomes.push({ forgotten, outcome, used: await used(payer) });
    if (forgotten) expect((await records.get(key))?.chargedTo).toBeUndefined();
  }

  expect(outcomes).toEqual([
    { forgotten: false, outcome: 'failed', used: 0 },
    { forgotten: true, outcome: 'failed', used: 1 },
  ]);
});

describe('a run the store interrupts', () => {
  const storeDown = () =>
    new ServiceUnavailableError('storage-unavailable', 'The store is unavailable.', 1);

  it('is handed back to the queue while its message has deliveries left', async () => {
    const { records, jobs, run } = worker(0, storeDown());
    const { key, jobId } = await newRun(records);
    await pendingJob(jobs, key, jobId);

    const outcome = await run({ key, request_id: 'req-blink' }, budget());

    expect(outcome).toBe('retry');
    expect((await records.get(key))?.state).toBe('running');
    expect((await jobs.get(jobId))?.status).toBe('running');
  });

  it('ends failed on its last delivery, so neither its jobs nor a new request wait for a dead message', async () => {
    const { records, jobs, run } = worker(0, storeDown());
    const { key, jobId } = await newRun(records);
    await pendingJob(jobs, key, jobId);

    const outcome = await run({ key, request_id: 'req-last' }, { ...budget(), lastDelivery: true });
    const record = await records.get(key);

    expect(outcome).toBe('failed');
    expect(record?.problem).toMatchObject({ status: 503, type: 'summary-interrupted' });
    expect(await jobs.get(jobId)).toMatchObject({
      status: 'failed',
      problem: { status: 503, type: 'summary-interrupted' },
    });
    // A 5xx is not a verdict: the next identical request starts a new run.
    expect(reusable(record)).toBe('free');
  });
});
