// The summary worker: consumes the job queue (SQS, one message per run of a summary). Not behind
// API Gateway: the stack wires it to the queue, and the local host calls it the same way.
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { type Config, loadConfig } from '../../lib/config';
import { logger } from '../../lib/logger';
import {
  type BatchDeps,
  batchHandler,
  sqsQueueOnFirstSend,
  type WorkerHandler,
} from '../../lib/summaries/jobs/batch';
import { type Redeliver, sqsRedeliver } from '../../lib/summaries/jobs/delivery';
import type { JobQueue } from '../../lib/summaries/jobs/queue';
import { summaryWorkerFrom } from '../../lib/summaries/jobs/worker-wiring';
import { builtOnFirstCall } from '../../lib/util/lazy';
import { once } from '../../lib/util/once';

export type { WorkerHandler };

/** What the local host hands the worker besides its Config. */
export interface WorkerServices {
  /** The host's shutdown: runs give their lease back and stop at once. */
  shutdown?: AbortSignal;
  /** Runs take a lease even from a live holder (a resumed crash: no other process holds one). */
  force?: (messageId: string) => boolean;
  /** Brings a failed message back after its backoff; by default SQS (ChangeMessageVisibility). */
  redeliver?: Redeliver;
  /** Where a collection's videos are sent, and its driver woken; by default SQS (JOB_QUEUE_URL). */
  queue?: JobQueue;
}

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config, services: WorkerServices = {}): WorkerHandler {
  const db = createDocumentClient(config);
  const queue = services.queue ?? sqsQueueOnFirstSend(config);
  const worker = summaryWorkerFrom(config, db, logger, services.shutdown, async (job) => {
    if (job.collection === undefined) return;
    await queue
      .send({ collection: job.collection, request_id: job.requestId })
      .catch((error: unknown) => logger.warn('could not wake a collection', { error }));
  });
  const driver = once(async () =>
    (await import('../../lib/collections/wiring')).collectionDriverFrom(config, db, queue, logger),
  );
  const advance: BatchDeps['advance'] = async (collection, options) =>
    (await driver()).advance(collection, options);
  const redeliver = services.redeliver ?? sqsRedeliver(config);
  return batchHandler({ config, worker, advance, redeliver, force: services.force });
}

/** The Lambda entry point, built on the first event: a bad configuration fails the batch (SQS
 * delivers it again, then moves it to the dead-letter queue, whose alarm tells the operator). */
export const handler: WorkerHandler = builtOnFirstCall(
  () => create(loadConfig()),
  async (error) => {
    logger.error('the worker cannot start: invalid configuration', { error });
    throw error;
  },
);
