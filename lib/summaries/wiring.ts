// The summary service of a Config: its stores over the given DynamoDB client, the catalog, and
// the summarizers. Kept apart from the account functions so that they do not bundle YouTube or
// Bedrock. The YouTube client, the offline model and the model clients are loaded on the first
// cache miss: a cold start that is answered from the cache never loads them.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Config, SUMMARIZE_MARGIN_MS } from '../config';
import type { Logger } from '../logger';
import type { YouTubeClient } from '../youtube/client';
import type { Video } from '../youtube/types';
import { catalogFromConfig } from './catalog';
import { createSummaryService, type SummarizeResponse, type SummaryService } from './service';
import { createSingleFlight } from './single-flight';
import { createCache } from './store/cache';
import { createQuota } from './store/quota';
import type { Summarizer } from './types';

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

/**
 * The summary service of `config`, with its caches and quota in `db`.
 * @throws ConfigError for an invalid model catalog or DEFAULT_MODEL.
 */
export function summaryServiceFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
): SummaryService {
  // Read once per instance, when a cache miss first needs YouTube or a model server.
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
  return createSummaryService({
    youtube,
    catalog: catalogFromConfig(config),
    defaultModel: config.DEFAULT_MODEL,
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
    summaries: createCache<SummarizeResponse>(
      db,
      config.TABLE_NAME,
      config.SUMMARY_CACHE_TTL_SECONDS,
    ),
    videos: createCache<Video>(db, config.TABLE_NAME, config.TRANSCRIPT_CACHE_TTL_SECONDS),
    quota: createQuota(db, config.TABLE_NAME, config.SUMMARY_DAILY_QUOTA),
    flights: createSingleFlight<SummarizeResponse>(db, config.TABLE_NAME, {
      // Held past the deadline, so a holder that vanishes (a Lambda timeout) frees it soon.
      leaseSeconds: Math.ceil((config.SUMMARIZE_DEADLINE_MS + SUMMARIZE_MARGIN_MS) / 1000),
      keepSeconds: 60,
      pollMs: 250,
    }),
    logger,
  });
}
