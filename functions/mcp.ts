// POST /mcp: the Model Context Protocol endpoint (stateless Streamable HTTP, JSON answers) with
// the tools summarize_video, get_summary, get_transcript, ask_video, summarize_collection,
// get_collection and ask_collection, for the authenticated caller.
import type { Config } from '../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../lib/http/entry';
import type { McpServices } from './mcp.root';

export type { McpServices };

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config, services: McpServices = {}): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./mcp.root'),
    (root) => root.create(config, services),
  );
}

export const handler = lambdaEntry(create);
