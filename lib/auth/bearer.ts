// Authentication of protected routes: only `Authorization: Bearer <jwt>` counts (tokens in
// query strings or cookies are ignored), and the token's user must still exist.
import { getConfig } from '../config';
import { UnauthorizedError } from '../http/errors';
import { getServices } from '../services';
import type { User } from '../users/store';
import { getTokenSettings } from './settings';
import { InvalidTokenError, verifyToken } from './tokens';

/** What createHandler calls on protected routes with the Authorization header. */
export type Authenticator = (authorization: string | undefined) => Promise<User>;

/**
 * The user a bearer token belongs to.
 * @throws UnauthorizedError (one shape for every token failure); ConfigError without a secret.
 */
export const authenticateBearer: Authenticator = async (authorization) => {
  if (authorization === undefined || authorization.trim() === '') {
    throw new UnauthorizedError('missing_token');
  }
  const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim());
  if (!match?.[1]) throw new UnauthorizedError('invalid_token');
  const settings = await getTokenSettings(getConfig());
  let userId: string;
  try {
    userId = await verifyToken(settings, match[1]);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw new UnauthorizedError('invalid_token');
    throw error;
  }
  const user = await getServices().users.getById(userId);
  if (!user) throw new UnauthorizedError('invalid_token');
  return user;
};
