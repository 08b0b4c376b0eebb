// The summary worker: consumes the job queue (SQS, one message per run of a summary). Not behind
// API Gateway: the stack wires it to the queue, and the local host calls it the same way.
import { type Config, loadConfig } from '../../lib/config';
import { logger } from '../../lib/logger';
import type { WorkerHandler } from '../../lib/summaries/jobs/batch';
import { builtOnFirstCall, loadedOnFirstCall } from '../../lib/util/lazy';
import type { WorkerServices } from './worker.root';

export type { WorkerHandler, WorkerServices };

/** Logged, then thrown: SQS delivers the batch again, then moves it to the dead-letter queue,
 * whose alarm tells the operator. */
async function cannotStart(error: unknown): Promise<never> {
  logger.error('the worker cannot start: invalid configuration', { error });
  throw error;
}

/**
 * The worker's handler, built from a Config (the local host and tests pass their own); its code
 * (the runs, the stores, the queue's clients) is imported on the first batch, so that a cold
 * start imports this file alone.
 */
export function create(config: Config, services: WorkerServices = {}): WorkerHandler {
  return loadedOnFirstCall(
    () => import('./worker.root'),
    (root) => root.create(config, services),
    cannotStart,
  );
}

/** The Lambda entry point, built on the first event: a bad configuration fails the batch. */
export const handler: WorkerHandler = builtOnFirstCall(() => create(loadConfig()), cannotStart);
