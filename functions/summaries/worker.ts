// The summary worker: consumes the job queue (SQS, one message per run of a summary, see
// lib/summaries/jobs/delivery.ts) and makes each summary within the job's budget. Messages it could
// not finish for a passing reason (the store down) are reported as partial batch failures, so
// SQS delivers them again, after a backoff the worker sets (ChangeMessageVisibility) rather than
// the queue's 90-minute visibility timeout; the run then resumes from its checkpoints. Not behind
// API Gateway: the stack wires it to the queue, and the local host calls it the same way,
// in-process.
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { type Config, loadConfig } from '../../lib/config';
import { WORKER_MARGIN_MS } from '../../lib/config/summaries';
import { appendLogKeys, logger, resetLogKeys } from '../../lib/logger';
import {
  type FailedMessage,
  MAX_RECEIVES,
  queueMessageSchema,
  type Redeliver,
  redeliverLater,
  sqsRedeliver,
  wakesCollection,
} from '../../lib/summaries/jobs/delivery';
import type { JobQueue } from '../../lib/summaries/jobs/queue';
import { summaryWorkerFrom } from '../../lib/summaries/jobs/worker-wiring';
import { once } from '../../lib/util/once';

export type WorkerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/** What the local host hands the worker besides its Config. */
export interface WorkerServices {
  /** The host's shutdown: runs give their lease back and stop at once. */
  shutdown?: AbortSignal;
  /** Runs take a lease even from a live holder (a resumed crash: no other process holds one). */
  force?: (messageId: string) => boolean;
  /**
   * Brings a failed message back after its backoff; by default SQS's ChangeMessageVisibility on
   * the queue it came from. The local host's queue waits the same backoff itself.
   */
  redeliver?: Redeliver;
  /** Where a collection's videos are sent, and its driver woken; by default SQS (JOB_QUEUE_URL). */
  queue?: JobQueue;
}

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config, services: WorkerServices = {}): WorkerHandler {
  const db = createDocumentClient(config);
  // The SQS client loads with the first collection's message, not on every cold start.
  const sqs = once(async () =>
    (await import('../../lib/summaries/jobs/queue')).sqsQueueFrom(config),
  );
  const queue: JobQueue = services.queue ?? {
    send: async (message) => (await sqs()).send(message),
  };
  const worker = summaryWorkerFrom(config, db, logger, services.shutdown, async (job) => {
    if (job.collection === undefined) return;
    await queue
      .send({ collection: job.collection, request_id: job.requestId })
      .catch((error: unknown) => logger.warn('could not wake a collection', { error }));
  });
  const driver = once(async () =>
    (await import('../../lib/collections/wiring')).collectionDriverFrom(config, db, queue, logger),
  );
  const redeliver = services.redeliver ?? sqsRedeliver(config);
  return async (event, context) => {
    const failed: SQSRecord[] = [];
    // One message at a time (the stack sets batches of one): each run has the whole budget.
    for (const record of event.Records) {
      // Each message's lines carry its own keys, never the message's before it (as each HTTP
      // request's, lib/http/entry.ts).
      resetLogKeys();
      appendLogKeys({ message_id: record.messageId });
      const parsed = queueMessageSchema.safeParse(safeJson(record.body));
      if (!parsed.success) {
        // A message nothing can make: dropping it is all there is to do.
        logger.error('queue message dropped: not a summary job', { message_id: record.messageId });
        continue;
      }
      appendLogKeys({ request_id: parsed.data.request_id });
      const message = parsed.data;
      if (wakesCollection(message)) {
        appendLogKeys({ collection_id: message.collection });
        try {
          await (await driver()).advance(message.collection, {
            force: services.force?.(record.messageId) ?? false,
            lastDelivery: receivesOf(record) >= MAX_RECEIVES,
          });
        } catch (error) {
          logger.error('collection advance failed; the message will be delivered again', {
            error,
          });
          failed.push(record);
        }
        continue;
      }
      const budgetMs = Math.min(
        config.JOB_DEADLINE_MS,
        context.getRemainingTimeInMillis() - WORKER_MARGIN_MS,
      );
      try {
        const budget = Math.max(1_000, budgetMs);
        const outcome = await worker.run(
          message,
          {
            signal: AbortSignal.timeout(budget),
            endsAt: Date.now() + budget,
            lastDelivery: receivesOf(record) >= MAX_RECEIVES,
          },
          services.force?.(record.messageId) ?? false,
        );
        if (outcome === 'retry') failed.push(record);
      } catch (error) {
        logger.error('summary run failed unexpectedly; the message will be delivered again', {
          error,
        });
        failed.push(record);
      }
    }
    // Before answering: Lambda may freeze the instance as soon as the handler returns.
    await redeliverLater(failed.map(failedMessage), redeliver, config.JOB_LEASE_SECONDS, logger);
    // Partial batch response: SQS keeps (and delivers again) only these. Written out rather
    // than with Powertools' batch processor: for batches of one it is these lines, and the
    // package would bundle a second copy of Powertools' commons (2.35 beside the logger's 2.36).
    return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) };
  };
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

/**
 * The Lambda entry point: the handler is built on the first event from the environment's
 * Config. A bad configuration fails the batch (SQS delivers it again, and after a few tries
 * moves it to the dead-letter queue, whose alarm tells the operator).
 */
export const handler: WorkerHandler = (() => {
  let built: WorkerHandler | undefined;
  return async (event, context) => {
    if (!built) {
      try {
        built = create(loadConfig());
      } catch (error) {
        logger.error('the worker cannot start: invalid configuration', { error });
        throw error;
      }
    }
    return built(event, context);
  };
})();
