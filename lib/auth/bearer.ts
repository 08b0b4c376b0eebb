// Authentication of protected routes: only `Authorization: Bearer <credential>` counts (tokens in
// query strings or cookies are ignored). The credential is an access token (a JWT from
// POST /token) or an API key (`tsk_...`, told apart by its prefix), and its user must still exist.

import { looksLikeApiKey } from '../api-keys/secret';
import type { ApiKeyVerifier } from '../api-keys/service';
import { UnauthorizedError } from '../errors';
import type { User } from '../users/store';
import { InvalidTokenError, type TokenSettings, verifyToken } from './tokens';

/** Who a request is from, and with which credential. */
export interface Principal {
  user: User;
  /** The id of the API key the request brought; undefined for an access token. */
  apiKeyId?: string;
}

/** What createHandler calls on protected routes with the Authorization header. */
export type Authenticator = (authorization: string | undefined) => Promise<Principal>;

export interface BearerDependencies {
  /** The settings tokens are verified with (tokenSettingsFrom). */
  tokenSettings: () => Promise<TokenSettings>;
  /** The user a credential names, if it still exists. */
  findUser: (id: string) => Promise<User | undefined>;
  /** The holder of an API key, if it exists (createApiKeyVerifier). */
  verifyApiKey: ApiKeyVerifier;
}

/**
 * Authenticates bearer credentials: the user an access token or API key belongs to.
 * The authenticator throws UnauthorizedError (one shape for every token and key failure),
 * ConfigError without a usable secret, and ServiceUnavailableError when DynamoDB fails.
 */
export function createBearerAuthenticator(deps: BearerDependencies): Authenticator {
  const invalid = () => new UnauthorizedError('invalid_token');
  return async (authorization) => {
    if (authorization === undefined || authorization.trim() === '') {
      throw new UnauthorizedError('missing_token');
    }
    const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim());
    const credential = match?.[1];
    if (!credential) throw invalid();
    if (looksLikeApiKey(credential)) {
      const holder = await deps.verifyApiKey(credential);
      const user = holder && (await deps.findUser(holder.userId));
      // A deleted user's keys die with them, as their tokens do.
      if (!holder || !user) throw invalid();
      return { user, apiKeyId: holder.keyId };
    }
    const settings = await deps.tokenSettings();
    let userId: string;
    try {
      userId = await verifyToken(settings, credential);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw invalid();
      throw error;
    }
    const user = await deps.findUser(userId);
    if (!user) throw invalid();
    return { user };
  };
}
