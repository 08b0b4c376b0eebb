// POST /oauth/token: tokens for /mcp (authorization_code with PKCE, refresh_token); 200.
// POST /oauth/revoke: a client revokes a token, which disconnects it (RFC 7009); 200.
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry, loadedOnFirstEvent } from '../../lib/http/entry';

/**
 * The function's handler, built from a Config (the local host and tests pass their own); its
 * code is imported on the first event, so that a cold start imports this file alone.
 */
export function create(config: Config): LambdaHandler {
  return loadedOnFirstEvent(
    () => import('./oauth-token.root'),
    (root) => root.create(config),
  );
}

export const handler = lambdaEntry(create);
