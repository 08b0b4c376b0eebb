// The questions service of a Config: the answer cache and the quota in the table, the video
// source the summary worker uses (the transcript cache, then YouTube, then a kept transcription),
// and the model clients, each loaded on first use (modelClientsFrom).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { modelClientsFrom } from '../models/clients';
import { createCache } from '../store/cache';
import { createQuota } from '../store/quota';
import { catalogFromConfig } from '../summaries/offer';
import { keptTranscriptionsOf } from '../transcription/reuse';
import { createVideoSource } from '../transcripts/videos';
import type { Video } from '../youtube/types';
import type { AskResponse } from './schemas';
import { type AskService, createAskService } from './service';

/**
 * The questions service of `config`.
 * @throws ConfigError for an invalid model catalog or DEFAULT_MODEL.
 */
export function askServiceFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
): AskService {
  const clients = modelClientsFrom(config, logger);
  const table = config.TABLE_NAME;
  return createAskService({
    catalog: catalogFromConfig(config),
    // Configuration is case-insensitive (catalogFromConfig checked it); requests are not.
    defaultModel: config.DEFAULT_MODEL.trim().toLowerCase(),
    quota: createQuota(db, table, config.SUMMARY_DAILY_QUOTA),
    answers: createCache<AskResponse>(db, table, config.SUMMARY_CACHE_TTL_SECONDS),
    video: createVideoSource({
      videos: createCache<Video>(db, table, config.TRANSCRIPT_CACHE_TTL_SECONDS),
      youtube: clients.youtube,
      // Questions reuse the transcriptions summaries made; an answer has no time to make one.
      captionless: keptTranscriptionsOf(config, db),
      logger,
    }),
    chat: (model) => clients.chat(model),
    logger,
  });
}
