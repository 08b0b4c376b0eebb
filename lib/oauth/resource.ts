// /mcp as an OAuth protected resource: its bearer credentials are API keys (as on every route)
// and OAuth access tokens for /mcp itself, nothing else: a login token from POST /token is for
// the REST API (its aud), and an access token for another resource is not for this one. An
// access token's grant is read on every request: a disconnected app is refused at once. Its 401s
// name the resource metadata (RFC 9728 5.1), where an OAuth client finds how to get a token, and
// every scope (MCP's authorization specification, "Protected Resource Metadata Discovery").
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createApiKeyVerifier } from '../accounts/api-keys/service';
import { createApiKeyStore } from '../accounts/api-keys/store';
import {
  type AccessTokenVerifier,
  type Authenticator,
  createBearerAuthenticator,
} from '../accounts/auth/bearer';
import { tokenSettingsFrom } from '../accounts/auth/settings';
import { InvalidTokenError, type TokenSettings } from '../accounts/auth/tokens';
import { createUserStore } from '../accounts/users/store';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { RESOURCE_METADATA_PATH } from './metadata';
import { ALL_SCOPES_VALUE } from './scopes';
import { verifyAccessToken } from './tokens/access-tokens';
import { createGrantStore, type GrantStore } from './tokens/grant-store';

/** The URL of /mcp's protected resource metadata, which its 401 and 403 challenges name. */
export const resourceMetadataUrl = (origin: string): string => origin + RESOURCE_METADATA_PATH;

/** How fresh a connected app's "last used" is: written at most once a minute, as for API keys. */
export const GRANT_USE_RESOLUTION_MS = 60_000;

/** Verifies /mcp's access tokens: ours, for this origin's /mcp, of a grant that still holds. */
export function oauthAccessTokenVerifier(deps: {
  tokenSettings: () => Promise<TokenSettings>;
  grants: Pick<GrantStore, 'get' | 'recordUse'>;
  logger: Logger;
}): AccessTokenVerifier {
  return async (token, target) => {
    const claims = await verifyAccessToken(await deps.tokenSettings(), target.origin, token);
    const now = Date.now();
    const grant = await deps.grants.get(claims.grantId, now);
    // Disconnected, ended by a reused code or refresh token, or its account deleted.
    if (!grant || grant.userId !== claims.userId) throw new InvalidTokenError('grant ended');
    const since = now - GRANT_USE_RESOLUTION_MS;
    if (grant.lastUsedAt === undefined || grant.lastUsedAt < since) {
      await deps.grants.recordUse(grant.id, now, since).catch((error: unknown) => {
        deps.logger.warn('connected app use not recorded', { grant_id: grant.id, error });
      });
    }
    return claims;
  };
}

/** The authenticator of /mcp over `config`'s table: API keys and /mcp's access tokens. */
export function mcpAuthenticatorFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
): Authenticator {
  const users = createUserStore(db, config.TABLE_NAME);
  const tokenSettings = tokenSettingsFrom(config);
  return createBearerAuthenticator({
    tokenSettings,
    findUser: (id) => users.getById(id),
    verifyApiKey: createApiKeyVerifier(createApiKeyStore(db, config.TABLE_NAME), logger),
    verifyAccessToken: oauthAccessTokenVerifier({
      tokenSettings,
      grants: createGrantStore(db, config.TABLE_NAME),
      logger,
    }),
    resourceMetadata: ({ origin }) => resourceMetadataUrl(origin),
    scope: ALL_SCOPES_VALUE,
  });
}
