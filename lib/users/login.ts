// Login: an attempt reserved before anything is checked, one bcrypt compare on every path, one
// answer for every failure, and a token at the end.
import { dummyHash, fitsBcrypt, hashCost, hashPassword, verifyPassword } from '../auth/passwords';
import { type IssuedToken, issueToken, type TokenSettings } from '../auth/tokens';
import { UnauthorizedError } from '../errors';
import type { Logger } from '../logger';
import type { BcryptBudget } from './bcrypt-budget';
import { loginKey } from './identity';
import type { LoginGuard } from './login-guard';
import type { UserStore } from './store';

export interface LoginDependencies {
  users: UserStore;
  guard: LoginGuard;
  /** bcrypt runs per source address (BCRYPT_MAX_PER_IP). */
  budget: BcryptBudget;
  /** The settings tokens are signed with (tokenSettingsFrom). */
  tokenSettings: () => Promise<TokenSettings>;
  /** BCRYPT_COST: unknown users are compared against a hash of this cost. */
  bcryptCost: number;
  logger: Logger;
}

/**
 * Checks a login (username or email, any case) from an address and issues a token.
 * @throws UnauthorizedError (one shape for every failure); TooManyRequestsError when locked out
 * or when the address has used up its password checks.
 */
export async function logIn(
  deps: LoginDependencies,
  input: { identifier: string; password: string; sourceIp: string },
): Promise<IssuedToken> {
  const { guard, bcryptCost } = deps;
  const { identifier, password } = input;
  const user = await deps.users.findByLogin(identifier);
  // The user's username and email are one account; an unknown identifier is its own.
  const account = user ? `user:${user.id}` : `login:${loginKey(identifier).key}`;
  const attempt = await guard.begin(account, input.sourceIp);
  // After the lock-out (a locked-out guess costs no budget), before bcrypt. A refused check is
  // no failed guess: its attempt is given back.
  try {
    await deps.budget.spend(input.sourceIp);
  } catch (error) {
    await attempt.abandoned();
    throw error;
  }
  // Exactly one bcrypt compare on every path, at the current cost for unknown users, so
  // neither the answer nor its timing tells whether the account exists. bcrypt never sees
  // more than 72 bytes: an over-long password is compared as "" and then refused.
  const candidate = fitsBcrypt(password) ? password : '';
  const matches = await verifyPassword(candidate, user?.passwordHash ?? dummyHash(bcryptCost));
  // A failed attempt stays counted; a successful one is given back.
  if (!user || !matches || candidate !== password)
    throw new UnauthorizedError('invalid_credentials');
  await attempt.succeeded();
  if (hashCost(user.passwordHash) !== bcryptCost) {
    // BCRYPT_COST changed since this hash was made: move it to the current cost while we have
    // the password, so its logins take as long as everybody else's (and as unknown users').
    try {
      const upgraded = await hashPassword(password, bcryptCost);
      await deps.users.replacePasswordHash(user.id, user.passwordHash, upgraded);
    } catch (error) {
      deps.logger.warn('could not rehash a password at the current cost', {
        user_id: user.id,
        error: String(error),
      });
    }
  }
  return issueToken(await deps.tokenSettings(), user.id);
}
