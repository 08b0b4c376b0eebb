// The composition root of the summary worker (its entry is worker.ts): what it builds from its
// Config, loaded (an import() of the entry, a chunk of the bundle) when its first batch comes.
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
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

/** The worker's handler, built from a Config: the entry builds it on the first batch. */
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
