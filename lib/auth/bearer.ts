// Authentication of protected routes: only `Authorization: Bearer <jwt>` counts (tokens in
// query strings or cookies are ignored), and the token's user must still exist.
import { UnauthorizedError } from '../errors';
import type { User } from '../users/store';
import { InvalidTokenError, type TokenSettings, verifyToken } from './tokens';

/** What createHandler calls on protected routes with the Authorization header. */
export type Authenticator = (authorization: string | undefined) => Promise<User>;

export interface BearerDependencies {
  /** The settings tokens are verified with (tokenSettingsFrom). */
  tokenSettings: () => Promise<TokenSettings>;
  /** The user a token names, if it still exists. */
  findUser: (id: string) => Promise<User | undefined>;
}

/**
 * Authenticates bearer tokens: the user a token belongs to.
 * The authenticator throws UnauthorizedError (one shape for every token failure), and
 * ConfigError without a usable secret.
 */
export function createBearerAuthenticator(deps: BearerDependencies): Authenticator {
  return async (authorization) => {
    if (authorization === undefined || authorization.trim() === '') {
      throw new UnauthorizedError('missing_token');
    }
    const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim());
    if (!match?.[1]) throw new UnauthorizedError('invalid_token');
    const settings = await deps.tokenSettings();
    let userId: string;
    try {
      userId = await verifyToken(settings, match[1]);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw new UnauthorizedError('invalid_token');
      throw error;
    }
    const user = await deps.findUser(userId);
    if (!user) throw new UnauthorizedError('invalid_token');
    return user;
  };
}
