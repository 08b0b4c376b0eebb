// The local host's job queue (infra/local/queue.ts) delivers a message the worker failed again
// after the same backoff the deployed worker asks SQS for (redeliverySeconds of its receive
// count, never within the run's lease), and gives it up after MAX_RECEIVES deliveries, as the
// dead-letter queue takes it. Timers are faked: the minutes of backoff pass at once, exactly.
import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createLocalQueue, type QueueWorker } from '../../../infra/local/queue';
import { MAX_RECEIVES, redeliverySeconds } from '../../../lib/summaries/jobs/delivery';
import { modelOfKey, summaryKey } from '../../../lib/summaries/store/records';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A queue whose worker fails every delivery (reporting it, or crashing), and what it saw. */
function failingQueue(how: 'reports' | 'crashes', leaseSeconds: number) {
  const deliveries: { at: number; receives: number }[] = [];
  const log: string[] = [];
  const worker: QueueWorker = async (event: SQSEvent) => {
    const [record] = event.Records;
    deliveries.push({
      at: Date.now(),
      receives: Number(record?.attributes.ApproximateReceiveCount),
    });
    if (how === 'crashes') throw new Error('worker crashed');
    return { batchItemFailures: [{ itemIdentifier: record?.messageId ?? '' }] };
  };
  const queue = createLocalQueue({
    worker: async () => worker,
    concurrency: 1,
    timeoutMs: 60_000,
    leaseSeconds,
    log: (line) => log.push(line),
  });
  return { queue, deliveries, log };
}

/** The wait before each delivery after the first, in milliseconds. */
const gapsOf = (deliveries: { at: number }[]) =>
  deliveries.slice(1).map((delivery, i) => delivery.at - (deliveries[i]?.at ?? 0));

it('delivers a failed message again after the backoff of its receive count, then gives it up after MAX_RECEIVES', async () => {
  const { queue, deliveries, log } = failingQueue('reports', 30);

  await queue.send({ key: 'SUMMARY#local#backoff', request_id: 'req-backoff' });
  await vi.runAllTimersAsync();
  await queue.close();

  expect(deliveries.map((delivery) => delivery.receives)).toEqual([1, 2, 3, 4, 5]);
  expect(deliveries).toHaveLength(MAX_RECEIVES);
  expect(gapsOf(deliveries)).toEqual(
    [1, 2, 3, 4].map((receives) => 1_000 * redeliverySeconds(receives, 30)),
  );
  expect(log).toEqual([expect.stringMatching(/giving up a summary job after 5 attempts/)]);
});

it('waits out the run’s lease before delivering a message whose worker crashed', async () => {
  const { queue, deliveries } = failingQueue('crashes', 300);

  await queue.send({ key: 'SUMMARY#local#lease', request_id: 'req-lease' });
  await vi.advanceTimersByTimeAsync(1_000 * redeliverySeconds(1, 300) - 1);
  const beforeTheLeaseLapses = deliveries.length;
  await vi.advanceTimersByTimeAsync(1);
  await queue.close();

  expect(beforeTheLeaseLapses).toBe(1);
  expect(deliveries).toHaveLength(2);
  expect(gapsOf(deliveries)).toEqual([1_000 * redeliverySeconds(1, 300)]);
  expect(redeliverySeconds(1, 300)).toBeGreaterThan(300);
});

it('runs an offline summary at once while slow model jobs fill every place of their lane', async () => {
  const keyFor = (model: string, length: number) =>
    summaryKey({ videoId: 'py5byOOHZM8', model, length });
  const started: string[] = [];
  const finish: (() => void)[] = [];
  const worker: QueueWorker = async (event: SQSEvent) => {
    const message = JSON.parse(event.Records[0]?.body ?? '{}') as { key: string };
    started.push(message.key);
    // Model jobs hold their place until the test lets them go; the offline one ends at once.
    if (modelOfKey(message.key) !== 'extractive') {
      await new Promise<void>((resolve) => finish.push(resolve));
    }
    return { batchItemFailures: [] };
  };
  const queue = createLocalQueue({
    worker: async () => worker,
    concurrency: 1,
    timeoutMs: 60_000,
    leaseSeconds: 30,
    log: () => undefined,
  });
  const slow = [keyFor('llama3.2', 100), keyFor('llama3.2', 200)];
  const offline = keyFor('extractive', 100);

  for (const key of [...slow, offline]) await queue.send({ key, request_id: `req-${key}` });
  await vi.advanceTimersByTimeAsync(0);
  const whileBusy = [...started];
  for (const release of finish) release();
  await vi.advanceTimersByTimeAsync(0);
  for (const release of finish) release();
  await queue.close();

  // One model job at a time (concurrency 1), and the offline summary beside it, not behind.
  expect(whileBusy).toEqual([slow[0], offline]);
  expect(started).toEqual([slow[0], offline, slow[1]]);
});
