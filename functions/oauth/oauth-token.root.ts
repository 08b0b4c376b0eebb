// The composition root of the function whose entry is oauth-token.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import type { LambdaHandler } from '../../lib/http/entry';
import { requestOrigin } from '../../lib/http/headers/origin';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import {
  exchangeToken,
  revokeToken,
  type TokenRequestContext,
} from '../../lib/oauth/tokens/token-service';
import { tokenServiceFrom } from '../../lib/oauth/wiring';
import { json } from '../../lib/reply';
import { oauthRoutes } from '../../lib/routes/oauth';

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config): LambdaHandler {
  const db = createDocumentClient(config);
  const tokens = tokenServiceFrom(config, db, logger);
  // The origin whose /mcp the tokens are for, and a confidential client's Basic credentials.
  const context = (event: APIGatewayProxyEventV2): TokenRequestContext => ({
    origin: requestOrigin(config, event),
    now: Date.now(),
    authorization: event.headers?.authorization,
  });
  return serve(
    'oauth-token',
    oauthRoutes,
    {
      oauthToken: async ({ body, event }) =>
        // RFC 6749 5.1: no cache may keep tokens (no-store is every answer's; Pragma for HTTP/1.0).
        json(200, await exchangeToken(tokens, body, context(event)), { Pragma: 'no-cache' }),
      oauthRevoke: async ({ body, event }) => {
        await revokeToken(tokens, body, context(event));
        return json(200, {});
      },
    },
    config,
  );
}
