// The composition root of the function whose entry is oauth-clients.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import { mcpResource } from '../../lib/config/origin';
import type { LambdaHandler } from '../../lib/http/entry';
import { requestOrigin } from '../../lib/http/headers/origin';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { authorizationReply } from '../../lib/oauth/authorize/answer';
import { registerClient } from '../../lib/oauth/clients/registration';
import { type ClientMetadataOverrides, oauthClientsFrom } from '../../lib/oauth/wiring';
import { json } from '../../lib/reply';
import { oauthRoutes } from '../../lib/routes/oauth';

/** What the local host and tests hand the function instead of what it would build. */
export interface OAuthClientsServices {
  /** The metadata document fetch's address policy (tests: their local TLS server). */
  clientMetadata?: ClientMetadataOverrides;
}

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config, services: OAuthClientsServices = {}): LambdaHandler {
  const db = createDocumentClient(config);
  const { registration, authorization } = oauthClientsFrom(config, db, services.clientMetadata);
  return serve(
    'oauth-clients',
    oauthRoutes,
    {
      oauthRegister: async ({ body, event }) => {
        const client = await registerClient(registration, body, {
          sourceIp: event.requestContext.http.sourceIp,
          now: Date.now(),
        });
        logger.info('oauth client registered', {
          client_id: client.client_id,
          token_endpoint_auth_method: client.token_endpoint_auth_method,
          redirect_uris_left_out: body.redirect_uris.length - client.redirect_uris.length,
        });
        return json(201, client);
      },
      oauthAuthorize: async ({ event }) => {
        const origin = requestOrigin(config, event);
        const request = { origin, resource: mcpResource(origin) };
        return authorizationReply(authorization, event.rawQueryString ?? '', request, logger);
      },
    },
    config,
  );
}
