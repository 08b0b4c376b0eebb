// Login: one bcrypt compare on every path, one answer for every failure, a lock-out per
// identifier, and a token at the end.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dummyHash, fitsBcrypt, hashCost, hashPassword, verifyPassword } from '../auth/passwords';
import { getTokenSettings } from '../auth/settings';
import { type IssuedToken, issueToken } from '../auth/tokens';
import type { Config } from '../config';
import { UnauthorizedError } from '../http/errors';
import { appLogger } from '../http/logger';
import { createLoginGuard } from './login-guard';
import type { UserStore } from './store';

/**
 * Checks a login (username or email, any case) and issues a token.
 * @throws UnauthorizedError (one shape for every failure); TooManyRequestsError when locked out.
 */
export async function logIn(
  deps: { db: DynamoDBDocumentClient; users: UserStore; config: Config },
  input: { identifier: string; password: string },
): Promise<IssuedToken> {
  const { config } = deps;
  // A few closures over the shared client: cheap enough to make per login.
  const guard = createLoginGuard(deps.db, config.TABLE_NAME, {
    maxFailures: config.LOGIN_MAX_FAILURES,
    windowSeconds: config.LOGIN_WINDOW_SECONDS,
  });
  const { identifier, password } = input;
  // Both reads at once: a lock-out still wins, and a login costs one round trip less.
  const [, user] = await Promise.all([
    guard.assertAllowed(identifier),
    deps.users.findByLogin(identifier),
  ]);
  // Exactly one bcrypt compare on every path, at the current cost for unknown users, so
  // neither the answer nor its timing tells whether the account exists. bcrypt never sees
  // more than 72 bytes: an over-long password is compared as "" and then refused.
  const candidate = fitsBcrypt(password) ? password : '';
  const matches = await verifyPassword(
    candidate,
    user?.passwordHash ?? dummyHash(config.BCRYPT_COST),
  );
  if (!user || !matches || candidate !== password) {
    await guard.recordFailure(identifier);
    throw new UnauthorizedError('invalid_credentials');
  }
  if (hashCost(user.passwordHash) !== config.BCRYPT_COST) {
    // BCRYPT_COST changed since this hash was made: move it to the current cost while we have
    // the password, so its logins take as long as everybody else's (and as unknown users').
    try {
      const upgraded = await hashPassword(password, config.BCRYPT_COST);
      await deps.users.replacePasswordHash(user.id, user.passwordHash, upgraded);
    } catch (error) {
      appLogger.warn('could not rehash a password at the current cost', {
        user_id: user.id,
        error: String(error),
      });
    }
  }
  return issueToken(await getTokenSettings(config), user.id);
}
