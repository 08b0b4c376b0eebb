// The local host's job queue (infra/local/queue.ts) delivers a message the worker failed again
// after the same backoff the deployed worker asks SQS for (redeliverySeconds of its receive
// count, never within the run's lease), and gives it up after MAX_RECEIVES deliveries, as the
// dead-letter queue takes it. Timers are faked: the minutes of backoff pass at once, exactly.
import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createLocalQueue, type QueueWorker } from '../../../infra/local/queue';
import { MAX_RECEIVES, redeliverySeconds } from '../../../lib/summaries/delivery';

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
