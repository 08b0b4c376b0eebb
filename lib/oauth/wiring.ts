// The OAuth area's services over a Config's table, as its functions build them.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tokenSettingsFrom } from '../accounts/auth/settings';
import type { OwnedGrants } from '../accounts/users/deletion';
import { createUserStore } from '../accounts/users/store';
import { createWindowCounter } from '../aws/window-counter';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { createCache } from '../store/cache';
import type { AuthorizeDependencies, DecisionDependencies } from './authorize/authorization';
import { createClientDirectory } from './authorize/client-directory';
import { createFlowStore, type FlowStore } from './authorize/flow-store';
import {
  CLIENT_METADATA_MAX_BYTES,
  CLIENT_METADATA_TIMEOUT_MS,
  type ClientMetadataFetchOptions,
  fetchClientMetadata,
} from './clients/client-metadata';
import {
  createClientStore,
  type OAuthClient,
  type RegistrationDependencies,
} from './clients/clients';
import { disconnectAll } from './connected-apps';
import { createGrantStore, type GrantStore } from './tokens/grant-store';
import type { TokenServiceDependencies } from './tokens/token-service';

/** How long a fetched client ID metadata document is used before it is fetched again. */
export const CLIENT_METADATA_CACHE_SECONDS = 3_600;

const DAY_MS = 86_400_000;

/** What the local host or a test changes of the metadata document fetch (its address policy). */
export type ClientMetadataOverrides = Partial<ClientMetadataFetchOptions>;

/** Registration and authorization requests (the oauth-clients function). */
export function oauthClientsFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  overrides: ClientMetadataOverrides = {},
): { registration: RegistrationDependencies; authorization: AuthorizeDependencies } {
  const clients = createClientStore(db, config.TABLE_NAME);
  const options: ClientMetadataFetchOptions = {
    timeoutMs: CLIENT_METADATA_TIMEOUT_MS,
    maxBytes: CLIENT_METADATA_MAX_BYTES,
    ...overrides,
  };
  return {
    registration: {
      clients,
      counter: createWindowCounter(db, config.TABLE_NAME),
      maxPerAddressPerHour: config.OAUTH_REGISTER_MAX_PER_IP,
    },
    authorization: {
      directory: createClientDirectory({
        clients,
        documents: createCache<OAuthClient>(db, config.TABLE_NAME, CLIENT_METADATA_CACHE_SECONDS),
        fetchDocument: (url) => fetchClientMetadata(url, options),
      }),
      flows: createFlowStore(db, config.TABLE_NAME),
    },
  };
}

/** The token and revocation endpoints (the oauth-token function). */
export function tokenServiceFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
): TokenServiceDependencies {
  const users = createUserStore(db, config.TABLE_NAME);
  return {
    flows: createFlowStore(db, config.TABLE_NAME),
    grants: createGrantStore(db, config.TABLE_NAME),
    clients: createClientStore(db, config.TABLE_NAME),
    userExists: async (id) => (await users.getById(id)) !== undefined,
    tokenSettings: tokenSettingsFrom(config),
    accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    grantTtlMs: config.OAUTH_GRANT_TTL_DAYS * DAY_MS,
    logger,
  };
}

/** The person's answers and connected apps (the connected-apps function). */
export function consentFrom(
  config: Config,
  db: DynamoDBDocumentClient,
): DecisionDependencies & { flows: FlowStore; grants: GrantStore } {
  return {
    flows: createFlowStore(db, config.TABLE_NAME),
    clients: createClientStore(db, config.TABLE_NAME),
    grants: createGrantStore(db, config.TABLE_NAME),
    grantTtlMs: config.OAUTH_GRANT_TTL_DAYS * DAY_MS,
  };
}

/** A user's connected apps as an account's deletion ends them. */
export function ownedGrantsFrom(config: Config, db: DynamoDBDocumentClient): OwnedGrants {
  const grants = createGrantStore(db, config.TABLE_NAME);
  return { endAll: (userId) => disconnectAll(grants, userId) };
}
