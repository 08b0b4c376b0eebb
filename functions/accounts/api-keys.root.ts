// The composition root of the function whose entry is api-keys.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { createApiKeyService } from '../../lib/accounts/api-keys/service';
import { createApiKeyStore } from '../../lib/accounts/api-keys/store';
import { bearerAuthenticatorFrom } from '../../lib/accounts/auth/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import type { LambdaHandler } from '../../lib/http/entry';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { json, noContent } from '../../lib/reply';
import { apiKeyRoutes } from '../../lib/routes/api-keys';

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config): LambdaHandler {
  const db = createDocumentClient(config);
  const store = createApiKeyStore(db, config.TABLE_NAME);
  const authenticate = bearerAuthenticatorFrom(config, db, store);
  const apiKeys = createApiKeyService(store, logger);
  return serve(
    'api-keys',
    apiKeyRoutes,
    {
      createApiKey: async ({ user, body }) =>
        json(201, await apiKeys.create(user, body.name, body.expires_in_days)),
      listApiKeys: async ({ user }) => json(200, await apiKeys.list(user)),
      deleteApiKey: async ({ user, params }) => {
        await apiKeys.remove(user, params.id);
        return noContent();
      },
    },
    config,
    { authenticate },
  );
}
