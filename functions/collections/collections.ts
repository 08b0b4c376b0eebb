// POST /collections, GET /collections, GET and DELETE /collections/{id}: a playlist or a channel
// summarized as one, and the caller's collections.
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';
import type { CollectionsServices } from './collections.root';

export type { CollectionsServices };

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config, services: CollectionsServices = {}): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./collections.root'),
    (root) => root.create(config, services),
  );
}

export const handler = lambdaEntry(create);
