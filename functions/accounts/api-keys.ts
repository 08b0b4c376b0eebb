// POST /api-keys, GET /api-keys, DELETE /api-keys/{id}: the caller's API keys (made, listed,
// deleted), with a login token only.
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./api-keys.root'),
    (root) => root.create(config),
  );
}

export const handler = lambdaEntry(create);
