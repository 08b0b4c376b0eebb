// The worker Lambda's handler (functions/summaries/worker.ts) as deployed, handing back a message it could
// not finish: before it reports the partial batch failure it asks SQS (the real SDK client,
// against a stub speaking the wire protocol) to deliver the message again after the backoff of
// its receive count, rather than after the queue's 90-minute visibility timeout. The run meets
// a real table that goes away (DynamoDB Local behind a proxy that drops it on cue).
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { create } from '../../../functions/summaries/worker';
import { lambdaContext, sqsEvent } from '../../../infra/local/event';
import { ensureTable } from '../../../infra/local/table';
import { createDocumentClient } from '../../../lib/aws/dynamodb';
import { type Config, withSettings } from '../../../lib/config';
import { createQuota } from '../../../lib/store/quota';
import { redeliverySeconds } from '../../../lib/summaries/jobs/delivery';
import { newJobId } from '../../../lib/summaries/store/jobs';
import { createRecordStore, summaryKey, type Work } from '../../../lib/summaries/store/records';
import { type DynamoProxy, startDynamoProxy } from '../../support/dynamo-proxy';
import { testConfig } from '../../support/host';
import { type SqsStub, startSqsStub } from '../../support/sqs-stub';

const QUEUE_ARN = 'arn:aws:sqs:us-east-1:123456789012:tubesum-jobs';
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/tubesum-jobs';

let config: Config;
let db: DynamoDBDocumentClient;
let proxy: DynamoProxy;
let sqs: SqsStub;
let worker: ReturnType<typeof create>;

beforeAll(async () => {
  config = testConfig();
  db = createDocumentClient(config);
  await ensureTable(db as never, config.TABLE_NAME);
  proxy = await startDynamoProxy(config.AWS_ENDPOINT_URL_DYNAMODB as string);
  sqs = await startSqsStub();
  // The function as the stack runs it: no redelivery handed in, SQS's from its settings.
  worker = create(
    withSettings(config, {
      AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      // The proxy drops the connections of a table that is gone (refused at once, whatever the
      // time-out): this only bounds the requests that go through, which a loaded machine may
      // answer in seconds.
      DYNAMODB_TIMEOUT_MS: 10_000,
    }),
  );
});
afterEach(() => {
  proxy.restore();
  sqs.failWith(undefined);
});
afterAll(async () => {
  await proxy?.close();
  await sqs?.close();
  db?.destroy();
});

const records = () => createRecordStore(db, config.TABLE_NAME, { leaseMs: 30_000 });

/** A new run of a summary waiting for a worker (written straight to the table); its key. */
async function newRun(): Promise<string> {
  const work: Work = {
    videoId: 'py5byOOHZM8',
    model: 'extractive',
    length: 100 + Math.floor(Math.random() * 1e6),
  };
  const key = summaryKey(work);
  const claimed = await records().claim(key, {
    work,
    jobId: newJobId(),
    requestId: randomUUID(),
    charge: createQuota(db, config.TABLE_NAME, 0).reservation('someone'),
    userId: 'someone',
  });
  expect(claimed).toBe('claimed');
  return key;
}

/** What Lambda's SQS poller hands the worker for the `receives`-th delivery of a run. */
function delivery(key: string, receives: number): SQSEvent {
  const event = sqsEvent({
    id: randomUUID(),
    body: JSON.stringify({ key, request_id: `req-${randomUUID()}` }),
    receives,
    sentAt: Date.now(),
  });
  for (const record of event.Records) {
    record.eventSourceARN = QUEUE_ARN;
    record.awsRegion = 'us-east-1';
  }
  return event;
}

const invoke = (event: SQSEvent) => worker(event, lambdaContext('worker', 'invocation', 900_000));

/** Invokes the worker with `event`; expects its one message reported failed and handed back. */
async function expectHandedBack(event: SQSEvent, receives: number): Promise<void> {
  const [record] = event.Records;
  const before = sqs.visibilityChanges.length;

  const response = await invoke(event);

  expect(response.batchItemFailures).toEqual([{ itemIdentifier: record?.messageId }]);
  expect(sqs.visibilityChanges.slice(before)).toEqual([
    {
      queueUrl: QUEUE_URL,
      receiptHandle: record?.receiptHandle,
      visibilityTimeout: redeliverySeconds(receives, config.JOB_LEASE_SECONDS),
    },
  ]);
}

it('hands a run that returned retry (the table gone after its lease) back after the backoff of its first delivery', async () => {
  const key = await newRun();
  proxy.failAfter('UpdateItem');

  await expectHandedBack(delivery(key, 1), 1);

  // It got as far as its lease: the run stopped inside, for a passing reason.
  expect((await records().get(key))?.owner).toBeDefined();
});

it('hands a run that threw (the table unreachable) back after the longer backoff of its third delivery', async () => {
  const key = await newRun();
  proxy.failAfter();

  await expectHandedBack(delivery(key, 3), 3);

  expect(redeliverySeconds(3, config.JOB_LEASE_SECONDS)).toBeGreaterThan(
    redeliverySeconds(1, config.JOB_LEASE_SECONDS),
  );
});

it('still reports the failure when SQS refuses to change the visibility (SQS then waits its own timeout)', async () => {
  const key = await newRun();
  const event = delivery(key, 2);
  const before = { calls: sqs.calls.length, changes: sqs.visibilityChanges.length };
  proxy.failAfter();
  sqs.failWith({ status: 500, type: 'InternalError' });

  const response = await invoke(event);

  expect(response.batchItemFailures).toEqual([{ itemIdentifier: event.Records[0]?.messageId }]);
  expect(sqs.calls.slice(before.calls)).toContain('ChangeMessageVisibility');
  expect(sqs.visibilityChanges.length).toBe(before.changes);
});

it('leaves SQS alone for a message it is done with', async () => {
  const before = sqs.calls.length;

  // No record under that key: nothing to make, the message is deleted.
  const response = await invoke(delivery(`SUMMARY#gone#${randomUUID()}`, 1));

  expect(response.batchItemFailures).toEqual([]);
  expect(sqs.calls.length).toBe(before);
});
