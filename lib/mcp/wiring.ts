// The MCP tools of a Config: the services behind each, built once per cold start.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { askServiceFrom } from '../ask/wiring';
import { collectionSourceFrom } from '../collections/source';
import { collectionAskFrom, collectionServiceFrom } from '../collections/wiring';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { modelClientsFrom } from '../models/clients';
import { createCache } from '../store/cache';
import { createQuota } from '../store/quota';
import type { JobQueue } from '../summaries/jobs/queue';
import { summaryServiceFrom } from '../summaries/wiring';
import { keptTranscriptionsOf } from '../transcription/reuse';
import type { Video } from '../youtube/types';
import { collectionTools } from './collections';
import { askTool, summaryTools, type ToolDef, transcriptTool } from './tools';
import { createTranscriptService } from './transcripts';

/** The tools, in the order clients list them. @throws ConfigError for an invalid catalog. */
export function mcpToolsFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  queue: JobQueue,
  logger: Logger,
): ToolDef[] {
  const summaries = summaryServiceFrom(config, db, queue, logger);
  const transcripts = createTranscriptService({
    videos: createCache<Video>(db, config.TABLE_NAME, config.TRANSCRIPT_CACHE_TTL_SECONDS),
    // Loaded (with the proxy's credentials) by the first transcript that is not cached.
    youtube: modelClientsFrom(config, logger).youtube,
    captionless: keptTranscriptionsOf(config, db),
    quota: createQuota(db, config.TABLE_NAME, config.SUMMARY_DAILY_QUOTA),
    logger,
  });
  return [
    ...summaryTools(summaries, config.MCP_WAIT_MS),
    transcriptTool(transcripts),
    askTool(askServiceFrom(config, db, logger), config.ASK_DEADLINE_MS),
    ...collectionTools(
      collectionServiceFrom(config, db, queue, collectionSourceFrom(config), logger),
      collectionAskFrom(config, db, logger),
      { waitMs: config.MCP_WAIT_MS, askDeadlineMs: config.ASK_DEADLINE_MS },
    ),
  ];
}
