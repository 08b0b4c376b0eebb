// GET /.well-known/oauth-protected-resource/mcp (and at the root), GET
// /.well-known/oauth-authorization-server: OAuth discovery, for the origin the request reached.
import type { Config } from '../lib/config';
import { dispatch } from '../lib/http/dispatch';
import { createHandler, type LambdaHandler, lambdaEntry } from '../lib/http/handler';
import { requestOrigin } from '../lib/http/origin';
import { json } from '../lib/http/reply';
import { authorizationServerMetadata, protectedResourceMetadata } from '../lib/oauth/metadata';
import { oauthRoutes } from '../lib/routes/oauth';

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config): LambdaHandler {
  const resource = createHandler(oauthRoutes.oauthProtectedResource, config, async ({ event }) =>
    json(200, protectedResourceMetadata(requestOrigin(config, event))),
  );
  return dispatch('oauth-metadata', [
    [oauthRoutes.oauthProtectedResource, resource],
    [oauthRoutes.oauthProtectedResourceRoot, resource],
    [
      oauthRoutes.oauthAuthorizationServer,
      createHandler(oauthRoutes.oauthAuthorizationServer, config, async ({ event }) =>
        json(200, authorizationServerMetadata(requestOrigin(config, event))),
      ),
    ],
  ]);
}

export const handler = lambdaEntry(create);
