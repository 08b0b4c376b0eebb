// The worker's SQS batch: each message handled in turn, with its own log keys, and those it could
// not finish for a passing reason (the store down) reported as partial batch failures, so SQS
// delivers them again after a backoff the worker sets (ChangeMessageVisibility) rather than the
// queue's 90-minute visibility timeout; the run then resumes from its checkpoints.
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Config } from '../../config';
import { WORKER_MARGIN_MS } from '../../config/summaries';
import { appendLogKeys, logger, resetLogKeys } from '../../logger';
import { once } from '../../util/once';
import {
  type FailedMessage,
  MAX_RECEIVES,
  queueMessageSchema,
  type Redeliver,
  redeliverLater,
  type WorkMessage,
  wakesCollection,
} from './delivery';
import type { JobQueue } from './queue';
import type { SummaryWorker } from './worker';

export type WorkerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/** What a delivery of a message may do besides run: take the lease from a live holder, and
 * whether no delivery comes after it. */
export interface DeliveryOptions {
  force: boolean;
  lastDelivery: boolean;
}

/** What the batch loop hands each message to. */
export interface BatchDeps {
  config: Pick<Config, 'JOB_DEADLINE_MS' | 'JOB_LEASE_SECONDS'>;
  worker: Pick<SummaryWorker, 'run'>;
  /** Advances a collection its message wakes (its driver, loaded on first use). */
  advance: (collection: string, options: DeliveryOptions) => Promise<unknown>;
  /** Brings a failed message back after its backoff. */
  redeliver: Redeliver;
  /** Runs take a lease even from a live holder (a resumed crash: no other process holds one). */
  force?: (messageId: string) => boolean;
}

/** The worker's handler: one message at a time (the stack sets batches of one), each with the
 * whole budget, and the failed ones handed back. */
export function batchHandler(deps: BatchDeps): WorkerHandler {
  return async (event, context) => {
    const failed: SQSRecord[] = [];
    for (const record of event.Records) {
      if (!(await handleRecord(deps, record, context))) failed.push(record);
    }
    // Before answering: Lambda may freeze the instance as soon as the handler returns.
    await redeliverLater(
      failed.map(failedMessage),
      deps.redeliver,
      deps.config.JOB_LEASE_SECONDS,
      logger,
    );
    // Partial batch response: SQS keeps (and delivers again) only these. Written out rather
    // than with Powertools' batch processor: for batches of one it is these lines, and the
    // package would bundle a second copy of Powertools' commons (2.35 beside the logger's 2.36).
    return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) };
  };
}

/**
 * One message of a batch: false when it is to be delivered again, true when it is done with
 * (made, settled, or dropped as a message nothing can make).
 */
export async function handleRecord(
  deps: BatchDeps,
  record: SQSRecord,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<boolean> {
  // Each message's lines carry its own keys, never the message's before it (as each HTTP
  // request's do).
  resetLogKeys();
  appendLogKeys({ message_id: record.messageId });
  const parsed = queueMessageSchema.safeParse(safeJson(record.body));
  if (!parsed.success) {
    // A message nothing can make: dropping it is all there is to do.
    logger.error('queue message dropped: not a summary job', { message_id: record.messageId });
    return true;
  }
  appendLogKeys({ request_id: parsed.data.request_id });
  const message = parsed.data;
  const options: DeliveryOptions = {
    force: deps.force?.(record.messageId) ?? false,
    lastDelivery: receivesOf(record) >= MAX_RECEIVES,
  };
  if (wakesCollection(message)) {
    appendLogKeys({ collection_id: message.collection });
    return advanceCollection(deps, message.collection, options);
  }
  return runSummary(deps, message, options, context.getRemainingTimeInMillis());
}

/** A collection's message: its driver advances it; a failure has the message delivered again. */
async function advanceCollection(
  deps: BatchDeps,
  collection: string,
  options: DeliveryOptions,
): Promise<boolean> {
  try {
    await deps.advance(collection, options);
    return true;
  } catch (error) {
    logger.error('collection advance failed; the message will be delivered again', { error });
    return false;
  }
}

/** A summary's message: its run, within what is left of the invocation (and the job's deadline). */
async function runSummary(
  deps: BatchDeps,
  message: WorkMessage,
  { force, lastDelivery }: DeliveryOptions,
  remainingMs: number,
): Promise<boolean> {
  const budgetMs = Math.min(deps.config.JOB_DEADLINE_MS, remainingMs - WORKER_MARGIN_MS);
  try {
    const budget = Math.max(1_000, budgetMs);
    const outcome = await deps.worker.run(
      message,
      { signal: AbortSignal.timeout(budget), endsAt: Date.now() + budget, lastDelivery },
      force,
    );
    return outcome !== 'retry';
  } catch (error) {
    logger.error('summary run failed unexpectedly; the message will be delivered again', {
      error,
    });
    return false;
  }
}

/** Deliveries of a record's message so far, this one included. */
const receivesOf = (record: SQSRecord) => Number(record.attributes.ApproximateReceiveCount) || 1;

function failedMessage(record: SQSRecord): FailedMessage {
  return {
    messageId: record.messageId,
    queueArn: record.eventSourceARN,
    receiptHandle: record.receiptHandle,
    receives: receivesOf(record),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The job queue over SQS (JOB_QUEUE_URL), its client loaded with the first message sent (a
 * collection's), not on every cold start. */
export function sqsQueueOnFirstSend(config: Config): JobQueue {
  const sqs = once(async () => (await import('./queue')).sqsQueueFrom(config));
  return { send: async (message) => (await sqs()).send(message) };
}
