// The composition root of the function whose entry is mcp.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { createDocumentClient } from '../lib/aws/dynamodb';
import type { Config } from '../lib/config';
import { SUMMARIZE_MARGIN_MS } from '../lib/config/summaries';
import { requestOrigin } from '../lib/http/headers/origin';
import { serve } from '../lib/http/serve';
import { logger } from '../lib/logger';
import { createMcpEndpoint } from '../lib/mcp/endpoint';
import { mcpToolsFrom } from '../lib/mcp/wiring';
import { mcpAuthenticatorFrom, resourceMetadataUrl } from '../lib/oauth/resource';
import { mcpRoutes } from '../lib/routes/mcp';
import { type JobQueue, sqsQueueFrom } from '../lib/summaries/jobs/queue';
import { catalogFromConfig } from '../lib/summaries/offer';

/** What the local host hands the function instead of what it would build from the Config. */
export interface McpServices {
  /** The local host's in-process queue; deployed, the SQS queue at JOB_QUEUE_URL. */
  queue?: JobQueue;
}

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config, services: McpServices = {}) {
  const db = createDocumentClient(config);
  // API keys and OAuth access tokens for /mcp; not the REST API's login tokens.
  const authenticate = mcpAuthenticatorFrom(config, db, logger);
  const queue = services.queue ?? sqsQueueFrom(config);
  const tools = mcpToolsFrom(config, db, queue, logger);
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
