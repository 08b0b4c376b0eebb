// POST /mcp: the Model Context Protocol endpoint (stateless Streamable HTTP, JSON answers) with
// the tools summarize_video, get_summary, get_transcript, ask_video, summarize_collection,
// get_collection and ask_collection, for the authenticated caller.
import { askServiceFrom } from '../lib/ask/wiring';
import { createDocumentClient } from '../lib/aws/dynamodb';
import { collectionSourceFrom } from '../lib/collections/source';
import { collectionAskFrom, collectionServiceFrom } from '../lib/collections/wiring';
import type { Config } from '../lib/config';
import { SUMMARIZE_MARGIN_MS } from '../lib/config/summaries';
import { lambdaEntry } from '../lib/http/entry';
import { requestOrigin } from '../lib/http/headers/origin';
import { serve } from '../lib/http/serve';
import { logger } from '../lib/logger';
import { collectionTools } from '../lib/mcp/collections';
import { createMcpEndpoint } from '../lib/mcp/endpoint';
import { askTool, summaryTools, type ToolDef, transcriptTool } from '../lib/mcp/tools';
import { createTranscriptService } from '../lib/mcp/transcripts';
import { modelClientsFrom } from '../lib/models/clients';
import { mcpAuthenticatorFrom, resourceMetadataUrl } from '../lib/oauth/resource';
import { mcpRoutes } from '../lib/routes/mcp';
import { createCache } from '../lib/store/cache';
import { createQuota } from '../lib/store/quota';
import { type JobQueue, sqsQueueFrom } from '../lib/summaries/jobs/queue';
import { catalogFromConfig } from '../lib/summaries/offer';
import { summaryServiceFrom } from '../lib/summaries/wiring';
import { keptTranscriptionsOf } from '../lib/transcription/reuse';
import type { Video } from '../lib/youtube/types';

/** What the local host hands the function instead of what it would build from the Config. */
export interface McpServices {
  /** The local host's in-process queue; deployed, the SQS queue at JOB_QUEUE_URL. */
  queue?: JobQueue;
}

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config, services: McpServices = {}) {
  const db = createDocumentClient(config);
  // API keys and OAuth access tokens for /mcp; not the REST API's login tokens.
  const authenticate = mcpAuthenticatorFrom(config, db, logger);
  const queue = services.queue ?? sqsQueueFrom(config);
  const summaries = summaryServiceFrom(config, db, queue, logger);
  const transcripts = createTranscriptService({
    videos: createCache<Video>(db, config.TABLE_NAME, config.TRANSCRIPT_CACHE_TTL_SECONDS),
    // Loaded (with the proxy's credentials) by the first transcript that is not cached.
    youtube: modelClientsFrom(config, logger).youtube,
    captionless: keptTranscriptionsOf(config, db),
    quota: createQuota(db, config.TABLE_NAME, config.SUMMARY_DAILY_QUOTA),
    logger,
  });
  // The tools, in the order clients list them.
  const tools: ToolDef[] = [
    ...summaryTools(summaries, config.MCP_WAIT_MS),
    transcriptTool(transcripts),
    askTool(askServiceFrom(config, db, logger), config.ASK_DEADLINE_MS),
    ...collectionTools(
      collectionServiceFrom(config, db, queue, collectionSourceFrom(config), logger),
      collectionAskFrom(config, db, logger),
      { waitMs: config.MCP_WAIT_MS, askDeadlineMs: config.ASK_DEADLINE_MS },
    ),
  ];
  const endpoint = createMcpEndpoint(tools, { models: catalogFromConfig(config).names, logger });
  return serve(
    'mcp',
    mcpRoutes,
    {
      mcp: async ({ body, user, scopes, event, lambda, requestId }) =>
        endpoint({
          user,
          // An OAuth access token's scopes, which its tools/call is checked against.
          scopes,
          resourceMetadata: resourceMetadataUrl(requestOrigin(config, event)),
          requestId,
          headers: event.headers ?? {},
          body,
          // As /summarize: the margin is left to answer with the job.
          deadlineAt: Date.now() + lambda.getRemainingTimeInMillis() - SUMMARIZE_MARGIN_MS,
        }),
    },
    config,
    { authenticate },
  );
}

export const handler = lambdaEntry(create);
