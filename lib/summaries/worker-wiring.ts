// The summary worker of a Config: the stores, the YouTube client and the summarizers, each
// loaded on first use (a run of the offline model never loads the model clients, and the other
// way round). functions/worker.ts and the local host build it.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import { credentialsOnFirstUse, once, youTubeOnFirstUse } from '../lazy';
import type { Logger } from '../logger';
import type { Video } from '../youtube/types';
import { catalogFromConfig } from './catalog';
import { createCache } from './store/cache';
import type { Summarizer } from './types';
import { storesFrom } from './wiring';
import { createSummaryWorker, type SummaryWorker } from './worker';

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
  const credentials = credentialsOnFirstUse(config);
  const youtube = youTubeOnFirstUse(config, credentials, logger);
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
