// The summaries service of a Config: the stores behind the routes (records, jobs, quota) and the
// queue it hands runs to. The worker's composition (YouTube, the summarizers) is in
// worker-wiring.ts, so that the route functions bundle none of it.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OwnedJobs } from '../accounts/users/deletion';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { createQuota } from '../store/quota';
import type { JobQueue } from './jobs/queue';
import { catalogFromConfig } from './offer';
import { createSummaryService, type SummaryService } from './service';
import { createJobStore } from './store/jobs';
import { createRecordStore } from './store/records';

/** The stores the service and the worker share, over one DynamoDB client. */
export function storesFrom(config: Config, db: DynamoDBDocumentClient) {
  return {
    records: createRecordStore(db, config.TABLE_NAME, { leaseMs: config.JOB_LEASE_SECONDS * 1000 }),
    jobs: createJobStore(db, config.TABLE_NAME),
    quota: createQuota(db, config.TABLE_NAME, config.SUMMARY_DAILY_QUOTA),
  };
}

/**
 * The summaries service of `config`, handing new runs to `queue`.
 * @throws ConfigError for an invalid model catalog or DEFAULT_MODEL.
 */
export function summaryServiceFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  queue: JobQueue,
  logger: Logger,
): SummaryService {
  return createSummaryService({
    ...storesFrom(config, db),
    catalog: catalogFromConfig(config),
    // Configuration is case-insensitive (catalogFromConfig checked it); requests are not.
    defaultModel: config.DEFAULT_MODEL.trim().toLowerCase(),
    queue,
    logger,
  });
}

/** A user's summary jobs as an account's deletion removes them, each taken off its record. */
export function ownedJobsFrom(config: Config, db: DynamoDBDocumentClient): OwnedJobs {
  const { jobs, records } = storesFrom(config, db);
  return {
    list: (userId, page) => jobs.list(userId, page),
    remove: (id) => jobs.remove(id),
    forget: (key, jobId, userId) => records.forget(key, jobId, userId),
  };
}
