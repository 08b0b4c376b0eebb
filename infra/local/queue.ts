// The local host's job queue: what SQS and Lambda's event source mapping do for the deployed
// stack, in-process. POST /summarize sends runs to it through the same JobQueue interface as to
// SQS; it calls the same worker handler (functions/summaries/worker.ts) with the same SQS
// events, a few at a time (JOB_CONCURRENCY in each lane, laneOf: the offline model's summaries never wait behind
// slow model jobs), delivers a message again when the worker reports it failed or
// crashes, after the same backoff the deployed worker asks SQS for (redeliverySeconds), and gives
// up on it after MAX_RECEIVES deliveries (SQS's dead-letter queue). Hand-written: no SQS emulator
// runs without a download, and the local host needs nothing but the delivery loop.
import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  MAX_RECEIVES,
  type QueueMessage,
  redeliverySeconds,
  wakesCollection,
} from '../../lib/summaries/jobs/delivery';
import type { JobQueue } from '../../lib/summaries/jobs/queue';
import { modelOfKey } from '../../lib/summaries/store/records';
import { lambdaContext, sqsEvent } from './event';
import { concurrentInvokeStore } from './server';

export type QueueWorker = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/**
 * Which lane a message waits in: each lane runs `concurrency` messages at once, so a summary the
 * offline model makes in a moment never queues behind slow model jobs (a laptop's local model
 * may take many minutes a job).
 */
export function laneOf(message: QueueMessage): 'offline' | 'models' | 'collections' {
  // A collection's advance starts its videos' jobs and waits for none: it never holds up a
  // summary, and no summary holds it up.
  if (wakesCollection(message)) return 'collections';
  return modelOfKey(message.key) === 'extractive' ? 'offline' : 'models';
}

export interface LocalQueueOptions {
  /** The worker handler, loaded on the first message. */
  worker: () => Promise<QueueWorker>;
  /** Messages worked on at once, in each lane (laneOf). */
  concurrency: number;
  /** What the worker's context says is left: the job's budget and the worker's margin. */
  timeoutMs: number;
  /**
   * JOB_LEASE_SECONDS: a failed message waits at least this long (and a little) before its next
   * delivery, so that the lease of its run has lapsed (redeliverySeconds).
   */
  leaseSeconds: number;
  /** Where the queue says what it gives up on. */
  log: (line: string) => void;
}

export interface LocalQueue extends JobQueue {
  /**
   * Sends a run to resume after a crash, after `delayMs` (when the lease of a worker that may
   * still run elsewhere expires); `force`: no other worker can be alive, take its lease.
   */
  resume(message: QueueMessage, options: { force: boolean; delayMs: number }): void;
  /** Whether a message is a forced resumption (the worker handler asks). */
  forced(messageId: string): boolean;
  /** Stops delivering, and waits for the runs under way (their shutdown is the host's). */
  close(): Promise<void>;
}

interface Entry {
  id: string;
  message: QueueMessage;
  receives: number;
  sentAt: number;
}

/** A queue that runs `options.worker` in this process. */
export function createLocalQueue(options: LocalQueueOptions): LocalQueue {
  const lanes = new Map<string, { pending: Entry[]; running: number }>();
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const forcedIds = new Set<string>();
  const waiters = new Map<string, Set<() => void>>();
  const invokeStore = concurrentInvokeStore();
  let closed = false;

  const later = (delayMs: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };

  const wake = (key: string) => {
    for (const resolve of waiters.get(key) ?? []) resolve();
    waiters.delete(key);
  };

  async function deliver(entry: Entry): Promise<void> {
    entry.receives++;
    let failed = true;
    try {
      const worker = await options.worker();
      const event = sqsEvent({ ...entry, body: JSON.stringify(entry.message) });
      const context = lambdaContext('worker', entry.message.request_id, options.timeoutMs);
      // Each invocation in its own store, as on Lambda: its log keys stay its own.
      const response = await (await invokeStore).run({}, () => worker(event, context));
      failed = response.batchItemFailures.some((item) => item.itemIdentifier === entry.id);
    } catch (error) {
      options.log(`error: the worker crashed on a job: ${String(error)}`);
    }
    if (!wakesCollection(entry.message)) wake(entry.message.key);
    if (!failed || closed) return;
    if (entry.receives >= MAX_RECEIVES) {
      options.log(
        `error: giving up a ${wakesCollection(entry.message) ? 'collection' : 'summary job'} after ${entry.receives} attempts (request ${entry.message.request_id})`,
      );
      return;
    }
    later(1_000 * redeliverySeconds(entry.receives, options.leaseSeconds), () => enqueue(entry));
  }

  function pump() {
    for (const lane of lanes.values()) {
      while (!closed && lane.running < options.concurrency && lane.pending.length > 0) {
        const entry = lane.pending.shift() as Entry;
        lane.running++;
        const delivery = deliver(entry).finally(() => {
          lane.running--;
          running.delete(delivery);
          forcedIds.delete(entry.id);
          pump();
        });
        running.add(delivery);
      }
    }
  }

  function enqueue(entry: Entry) {
    if (closed) return;
    const name = laneOf(entry.message);
    const lane = lanes.get(name) ?? { pending: [], running: 0 };
    lanes.set(name, lane);
    lane.pending.push(entry);
    pump();
  }

  const entryOf = (message: QueueMessage): Entry => ({
    id: randomUUID(),
    message,
    receives: 0,
    sentAt: Date.now(),
  });

  return {
    async send(message) {
      enqueue(entryOf(message));
    },
    settled(key, signal) {
      return new Promise<void>((resolve) => {
        const set = waiters.get(key) ?? new Set();
        const done = () => {
          set.delete(done);
          resolve();
        };
        set.add(done);
        waiters.set(key, set);
        signal.addEventListener('abort', done, { once: true });
      });
    },
    resume(message, { force, delayMs }) {
      const entry = entryOf(message);
      if (force) forcedIds.add(entry.id);
      if (delayMs > 0) later(delayMs, () => enqueue(entry));
      else enqueue(entry);
    },
    forced: (messageId) => forcedIds.has(messageId),
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const lane of lanes.values()) lane.pending.length = 0;
      await Promise.allSettled([...running]);
    },
  };
}
