// The summaries area of a Config: the service behind the routes (records, jobs, quota, and the
// queue it hands runs to) and the worker that makes summaries (YouTube, the summarizers). Kept
// apart from the account functions so that they do not bundle either. The worker loads the
// YouTube client, the offline model and the model clients on first use.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { YouTubeClient } from '../youtube/client';
import type { Video } from '../youtube/types';
import { catalogFromConfig } from './catalog';
import type { JobQueue } from './queue';
import { createSummaryService, type SummaryService } from './service';
import { createCache } from './store/cache';
import { createJobStore } from './store/jobs';
import { createQuota } from './store/quota';
import { createRecordStore } from './store/records';
import type { Summarizer } from './types';
import { createSummaryWorker, type SummaryWorker } from './worker';

/** Calls `load` once and hands every caller the same promise (retried after a failure). */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

/** The stores both sides share, over one DynamoDB client. */
function storesFrom(config: Config, db: DynamoDBDocumentClient) {
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
    defaultModel: config.DEFAULT_MODEL,
    queue,
    logger,
  });
}

/**
 * The summary worker of `config`; `shutdown` (the local host's) stops its runs.
 * @throws ConfigError for an invalid model catalog.
 */
export function summaryWorkerFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
  shutdown?: AbortSignal,
): SummaryWorker {
  // Read once per instance, when a run first needs YouTube or a model server.
  const credentials = once(async () =>
    (await import('../credentials')).operatorCredentialsFrom(config),
  );
  const youtube = once<YouTubeClient>(async () =>
    (await import('../youtube/client')).youTubeClientFromConfig(config, await credentials(), {
      onWarning: (message, error) => logger.warn(message, { error: String(error) }),
    }),
  );
  const extractive = once<Summarizer>(async () =>
    (await import('./extractive/summarizer')).createExtractiveSummarizer(),
  );
  const bedrock = once(async () =>
    (await import('../aws/bedrock')).createBedrockClientFromConfig(config),
  );
  const openai = once(async () =>
    (await import('./llm/openai')).createOpenAiClientFromConfig(config, await credentials()),
  );
  return createSummaryWorker({
    ...storesFrom(config, db),
    videos: createCache<Video>(db, config.TABLE_NAME, config.TRANSCRIPT_CACHE_TTL_SECONDS),
    youtube,
    catalog: catalogFromConfig(config),
    summarizer: async (model) => {
      if (model.kind === 'extractive') return extractive();
      if (model.kind === 'openai') {
        const { createOpenAiSummarizer } = await import('./llm/openai');
        return createOpenAiSummarizer({
          client: await openai(),
          model,
          maxAttempts: config.OPENAI_MAX_ATTEMPTS,
          concurrency: config.OPENAI_CONCURRENCY,
          logger,
        });
      }
      const { createBedrockSummarizer } = await import('./llm/bedrock');
      return createBedrockSummarizer({
        client: await bedrock(),
        model,
        concurrency: config.BEDROCK_CONCURRENCY,
        logger,
      });
    },
    reuseSeconds: config.SUMMARY_CACHE_TTL_SECONDS,
    renewEveryMs: Math.max(500, (config.JOB_LEASE_SECONDS * 1000) / 3),
    logger,
    ...(shutdown ? { shutdown } : {}),
  });
}
