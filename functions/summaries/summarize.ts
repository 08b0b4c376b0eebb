// POST /summarize: a summary for the authenticated user: 200 when ready within the wait, else
// 202 with the job to poll (GET /summaries/{id}).
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';
import type { SummarizeServices } from './summarize.root';

export type { SummarizeServices };

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config, services: SummarizeServices = {}): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./summarize.root'),
    (root) => root.create(config, services),
  );
}

export const handler = lambdaEntry(create);
