// Wires the summarize flow to the process's config and clients, once per process. Kept apart
// from lib/services.ts so the register and token functions do not bundle YouTube or Bedrock.
// The YouTube client, the offline model and the Bedrock client are imported on the first cache
// miss: a cold start that is answered from the cache never loads them.
import { getConfig } from '../config';
import { appLogger as logger } from '../http/logger';
import { getServices } from '../services';
import type { YouTubeClient } from '../youtube/client';
import type { Video } from '../youtube/types';
import { createCache } from './cache';
import { catalogFromConfig } from './catalog';
import { createQuota } from './quota';
import { createSummaryService, type SummarizeResponse, type SummaryService } from './service';
import type { Summarizer } from './types';

let service: SummaryService | undefined;

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
 * The process-wide summary service, created on first use.
 * @throws ConfigError for an invalid model catalog or DEFAULT_MODEL.
 */
export function getSummaryService(): SummaryService {
  if (service) return service;
  const config = getConfig();
  const { db } = getServices();
  const youtube = once<YouTubeClient>(async () =>
    (await import('../youtube/client')).youTubeClientFromConfig(config, {
      onWarning: (message, error) => logger.warn(message, { error: String(error) }),
    }),
  );
  const extractive = once<Summarizer>(async () =>
    (await import('./extractive')).createExtractiveSummarizer(),
  );
  const bedrock = once(async () =>
    (await import('../aws/bedrock')).createBedrockClientFromConfig(config),
  );
  service = createSummaryService({
    youtube,
    catalog: catalogFromConfig(config),
    defaultModel: config.DEFAULT_MODEL,
    summarizer: async (model) => {
      if (model.kind === 'extractive') return extractive();
      const { createBedrockSummarizer } = await import('./bedrock');
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
    logger,
  });
  return service;
}
