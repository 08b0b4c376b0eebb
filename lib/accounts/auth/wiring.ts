// The bearer authenticator of a Config, as every function with protected routes builds it: the
// token settings, the user store and the API key store over the Config's table.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import { logger } from '../../logger';
import { createApiKeyVerifier } from '../api-keys/service';
import { type ApiKeyStore, createApiKeyStore } from '../api-keys/store';
import { createUserStore } from '../users/store';
import { type Authenticator, createBearerAuthenticator } from './bearer';
import { tokenSettingsFrom } from './settings';

/**
 * The authenticator of access tokens and API keys for `config`'s table, over `db`; `apiKeys`
 * when the function has a key store of its own already.
 */
export function bearerAuthenticatorFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  apiKeys: ApiKeyStore = createApiKeyStore(db, config.TABLE_NAME),
): Authenticator {
  const users = createUserStore(db, config.TABLE_NAME);
  return createBearerAuthenticator({
    tokenSettings: tokenSettingsFrom(config),
    findUser: (id) => users.getById(id),
    verifyApiKey: createApiKeyVerifier(apiKeys, logger),
  });
}
