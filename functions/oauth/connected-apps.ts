// GET /oauth/requests/{id}, POST /oauth/requests/{id}: the page shows a connection request and
// sends the person's answer (Allow, Deny); GET /connected-apps, DELETE /connected-apps/{id}: the
// apps they connected, and disconnecting one. With the person's login token only.
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./connected-apps.root'),
    (root) => root.create(config),
  );
}

export const handler = lambdaEntry(create);
