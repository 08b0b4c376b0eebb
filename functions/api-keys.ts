// POST /api-keys, GET /api-keys, DELETE /api-keys/{id}: the caller's API keys (made, listed,
// deleted), with a login token only. The routeKey tells which.
import { createApiKeyService } from '../lib/api-keys/service';
import { createApiKeyStore } from '../lib/api-keys/store';
import { bearerAuthenticatorFrom } from '../lib/auth/wiring';
import { createDocumentClient } from '../lib/aws/dynamodb';
import type { Config } from '../lib/config';
import { createHandler, type LambdaHandler, lambdaEntry } from '../lib/http/handler';
import { json, noContent } from '../lib/http/reply';
import { servingRouteKey } from '../lib/http/router';
import { logger } from '../lib/logger';
import { apiKeyRoutes } from '../lib/routes/api-keys';

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config): LambdaHandler {
  const db = createDocumentClient(config);
  const store = createApiKeyStore(db, config.TABLE_NAME);
  const authenticate = bearerAuthenticatorFrom(config, db, store);
  const apiKeys = createApiKeyService(store, logger);
  const byRouteKey: Record<string, LambdaHandler> = {
    [`${apiKeyRoutes.createApiKey.method} ${apiKeyRoutes.createApiKey.path}`]: createHandler(
      apiKeyRoutes.createApiKey,
      config,
      async ({ user, body }) =>
        json(201, await apiKeys.create(user, body.name, body.expires_in_days)),
      { authenticate },
    ),
    [`${apiKeyRoutes.listApiKeys.method} ${apiKeyRoutes.listApiKeys.path}`]: createHandler(
      apiKeyRoutes.listApiKeys,
      config,
      async ({ user }) => json(200, await apiKeys.list(user)),
      { authenticate },
    ),
    [`${apiKeyRoutes.deleteApiKey.method} ${apiKeyRoutes.deleteApiKey.path}`]: createHandler(
      apiKeyRoutes.deleteApiKey,
      config,
      async ({ user, event }) => {
        await apiKeys.remove(user, event.pathParameters?.id ?? '');
        return noContent();
      },
      { authenticate },
    ),
  };
  return async (event, context) => {
    const route = byRouteKey[servingRouteKey(event.routeKey)];
    if (!route) throw new Error(`the api-keys function does not serve ${event.routeKey}`);
    return route(event, context);
  };
}

export const handler = lambdaEntry(create);
