// POST /register: create an account; 201 with a message.
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./register.root'),
    (root) => root.create(config),
  );
}

export const handler = lambdaEntry(create);
