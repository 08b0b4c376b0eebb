// POST /oauth/register: register an OAuth client (RFC 7591); 201. GET /oauth/authorize: an app's
// authorization request, checked and sent on to the consent screen of the page (200, a page
// that forwards there), back to the app with an error (303), or answered with an error page (400).
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';
import type { OAuthClientsServices } from './oauth-clients.root';

export type { OAuthClientsServices };

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config, services: OAuthClientsServices = {}): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./oauth-clients.root'),
    (root) => root.create(config, services),
  );
}

export const handler = lambdaEntry(create);
