// DELETE /account: delete the caller's account and what it owns, with a login token and the
// account's password; 204.
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./account.root'),
    (root) => root.create(config),
  );
}

export const handler = lambdaEntry(create);
