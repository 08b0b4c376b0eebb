// Wires the summarize flow to the process's config and clients, once per process. Kept apart
// from lib/services.ts so the register and token functions do not bundle YouTube or Bedrock.
import { type BedrockClient, createBedrockClientFromConfig } from '../aws/bedrock';
import { getConfig } from '../config';
import { appLogger as logger } from '../http/logger';
import { getServices } from '../services';
import { youTubeClientFromConfig } from '../youtube/client';
import { createSummaryCache } from './cache';
import { catalogFromConfig } from './catalog';
import { createQuota } from './quota';
import { createSummaryService, type SummarizeResponse, type SummaryService } from './service';

let service: SummaryService | undefined;

/**
 * The process-wide summary service, created on first use.
 * @throws ConfigError for an invalid model catalog or DEFAULT_MODEL.
 */
export function getSummaryService(): SummaryService {
  if (service) return service;
  const config = getConfig();
  const { db } = getServices();
  let bedrock: BedrockClient | undefined;
  service = createSummaryService({
    youtube: youTubeClientFromConfig(config, {
      onWarning: (message, error) => logger.warn(message, { error: String(error) }),
    }),
    catalog: catalogFromConfig(config),
    defaultModel: config.DEFAULT_MODEL,
    bedrock: () => {
      bedrock ??= createBedrockClientFromConfig(config);
      return bedrock;
    },
    bedrockConcurrency: config.BEDROCK_CONCURRENCY,
    cache: createSummaryCache<SummarizeResponse>(
      db,
      config.TABLE_NAME,
      config.SUMMARY_CACHE_TTL_SECONDS,
    ),
    quota: createQuota(db, config.TABLE_NAME, config.SUMMARY_DAILY_QUOTA),
    logger,
  });
  return service;
}
