// The local host's job queue: what SQS and Lambda's event source mapping do for the deployed
// stack, in-process. POST /summarize sends runs to it through the same JobQueue interface as to
// SQS; it calls the same worker handler with the same SQS
// events, a few at a time (JOB_CONCURRENCY in each lane, laneOf: the offline model's summaries
// never wait behind slow model jobs), delivers a message again when the worker reports it failed
// or crashes, after the same backoff the deployed worker asks SQS for (redeliverySeconds), and
// gives up on it after MAX_RECEIVES deliveries (SQS's dead-letter queue). Hand-written: no SQS
// emulator runs without a download, and the local host needs nothing but the delivery loop.
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
import { concurrentInvokeStore } from './server/handlers';

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

/** What a queue keeps between its messages. */
interface QueueState {
  options: LocalQueueOptions;
  lanes: Map<string, { pending: Entry[]; running: number }>;
  /** The deliveries under way. */
  running: Set<Promise<void>>;
  /** Messages waiting for their delay (a backoff, a lease to lapse). */
  timers: Set<NodeJS.Timeout>;
  forcedIds: Set<string>;
  /** Who waits for a job's key to settle (POST /summarize's wait). */
  waiters: Map<string, Set<() => void>>;
  invokeStore: ReturnType<typeof concurrentInvokeStore>;
  closed: boolean;
}

function later(state: QueueState, delayMs: number, run: () => void) {
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    run();
  }, delayMs);
  timer.unref();
  state.timers.add(timer);
}

function wake(state: QueueState, key: string) {
  for (const resolve of state.waiters.get(key) ?? []) resolve();
  state.waiters.delete(key);
}

/** Runs the worker on one message; one it reports failed (or that crashed) comes back later. */
async function deliver(state: QueueState, entry: Entry): Promise<void> {
  const { options } = state;
  entry.receives++;
  let failed = true;
  try {
    const worker = await options.worker();
    const event = sqsEvent({ ...entry, body: JSON.stringify(entry.message) });
    const context = lambdaContext('worker', entry.message.request_id, options.timeoutMs);
    // Each invocation in its own store, as on Lambda: its log keys stay its own.
    const response = await (await state.invokeStore).run({}, () => worker(event, context));
    failed = response.batchItemFailures.some((item) => item.itemIdentifier === entry.id);
  } catch (error) {
    options.log(`error: the worker crashed on a job: ${String(error)}`);
  }
  if (!wakesCollection(entry.message)) wake(state, entry.message.key);
  if (!failed || state.closed) return;
  if (entry.receives >= MAX_RECEIVES) {
    options.log(
      `error: giving up a ${wakesCollection(entry.message) ? 'collection' : 'summary job'} after ${entry.receives} attempts (request ${entry.message.request_id})`,
    );
    return;
  }
  const delayMs = 1_000 * redeliverySeconds(entry.receives, options.leaseSeconds);
  later(state, delayMs, () => enqueue(state, entry));
}

/** Starts what each lane has room for. */
function pump(state: QueueState) {
  for (const lane of state.lanes.values()) {
    while (!state.closed && lane.running < state.options.concurrency && lane.pending.length > 0) {
      const entry = lane.pending.shift() as Entry;
      lane.running++;
      const delivery = deliver(state, entry).finally(() => {
        lane.running--;
        state.running.delete(delivery);
        state.forcedIds.delete(entry.id);
        pump(state);
      });
      state.running.add(delivery);
    }
  }
}

function enqueue(state: QueueState, entry: Entry) {
  if (state.closed) return;
  const name = laneOf(entry.message);
  const lane = state.lanes.get(name) ?? { pending: [], running: 0 };
  state.lanes.set(name, lane);
  lane.pending.push(entry);
  pump(state);
}

const entryOf = (message: QueueMessage): Entry => ({
  id: randomUUID(),
  message,
  receives: 0,
  sentAt: Date.now(),
});

/** Resolves when a job of `key` settles, or when `signal` aborts. */
function settled(state: QueueState, key: string, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const set = state.waiters.get(key) ?? new Set();
    const done = () => {
      set.delete(done);
      resolve();
    };
    set.add(done);
    state.waiters.set(key, set);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A queue that runs `options.worker` in this process. */
export function createLocalQueue(options: LocalQueueOptions): LocalQueue {
  const state: QueueState = {
    options,
    lanes: new Map(),
    running: new Set(),
    timers: new Set(),
    forcedIds: new Set(),
    waiters: new Map(),
    invokeStore: concurrentInvokeStore(),
    closed: false,
  };
  return {
    async send(message) {
      enqueue(state, entryOf(message));
    },
    settled: (key, signal) => settled(state, key, signal),
    resume(message, { force, delayMs }) {
      const entry = entryOf(message);
      if (force) state.forcedIds.add(entry.id);
      if (delayMs > 0) later(state, delayMs, () => enqueue(state, entry));
      else enqueue(state, entry);
    },
    forced: (messageId) => state.forcedIds.has(messageId),
    async close() {
      state.closed = true;
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      for (const lane of state.lanes.values()) lane.pending.length = 0;
      await Promise.allSettled([...state.running]);
    },
  };
}
