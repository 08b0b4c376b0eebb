// GET /.well-known/oauth-protected-resource/mcp (and at the root), GET
// /.well-known/oauth-authorization-server: OAuth discovery, for the origin the request reached.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../../lib/config';
import { type LambdaHandler, lambdaEntry } from '../../lib/http/entry';
import { requestOrigin } from '../../lib/http/headers/origin';
import { serve } from '../../lib/http/serve';
import { authorizationServerMetadata, protectedResourceMetadata } from '../../lib/oauth/metadata';
import { json } from '../../lib/reply';
import { oauthRoutes } from '../../lib/routes/oauth';

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config): LambdaHandler {
  const resource = async ({ event }: { event: APIGatewayProxyEventV2 }) =>
    json(200, protectedResourceMetadata(requestOrigin(config, event)));
  return serve(
    'oauth-metadata',
    oauthRoutes,
    {
      oauthProtectedResource: resource,
      oauthProtectedResourceRoot: resource,
      oauthAuthorizationServer: async ({ event }) =>
        json(200, authorizationServerMetadata(requestOrigin(config, event))),
    },
    config,
  );
}

export const handler = lambdaEntry(create);
