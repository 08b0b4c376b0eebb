// Login: an attempt reserved before anything is checked, one bcrypt compare on every path, one
// answer for every failure, and a token at the end.

import { UnauthorizedError } from '../../errors';
import type { Logger } from '../../logger';
import { dummyHash, fitsBcrypt, hashCost, hashPassword, verifyPassword } from '../auth/passwords';
import { type IssuedToken, issueToken, type TokenSettings } from '../auth/tokens';
import type { BcryptBudget } from './bcrypt-budget';
import { loginKey } from './identity';
import type { LoginAttempt, LoginGuard } from './login-guard';
import type { UserStore } from './store';

/** What a password check needs: the limits it counts against, and the current bcrypt cost. */
export interface PasswordCheckDependencies {
  guard: LoginGuard;
  /** bcrypt runs per source address (BCRYPT_MAX_PER_IP). */
  budget: BcryptBudget;
  /** BCRYPT_COST: unknown users are compared against a hash of this cost. */
  bcryptCost: number;
}

export interface LoginDependencies extends PasswordCheckDependencies {
  users: UserStore;
  /** The settings tokens are signed with (tokenSettingsFrom). */
  tokenSettings: () => Promise<TokenSettings>;
  logger: Logger;
}

/** The login guard's account of a user: their username and their email count together. */
export const userAccount = (userId: string) => `user:${userId}`;

/**
 * Checks a password within the login limits: an attempt on `account` from the address is
 * reserved before anything is checked, then one bcrypt run of the address's budget, then exactly
 * one bcrypt compare against `hash` (for no user, a hash of the current cost that nothing
 * matches). bcrypt never sees more than 72 bytes: an over-long password is compared as "" and
 * then refused. Returns the attempt, still reserved, when the password is right (the caller
 * gives it back as fits what follows), or undefined when it is wrong (the attempt stays counted).
 * @throws TooManyRequestsError when the account is locked or the address's budget is used up.
 */
export async function checkPassword(
  deps: PasswordCheckDependencies,
  input: { account: string; hash: string | undefined; password: string; sourceIp: string },
): Promise<LoginAttempt | undefined> {
  const { password } = input;
  const attempt = await deps.guard.begin(input.account, input.sourceIp);
  // After the lock-out (a locked-out guess costs no budget), before bcrypt. A refused check is
  // no failed guess: its attempt is given back.
  try {
    await deps.budget.spend(input.sourceIp);
  } catch (error) {
    await attempt.abandoned();
    throw error;
  }
  const candidate = fitsBcrypt(password) ? password : '';
  const matches = await verifyPassword(candidate, input.hash ?? dummyHash(deps.bcryptCost));
  // A failed attempt stays counted.
  return matches && candidate === password ? attempt : undefined;
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
  const { bcryptCost } = deps;
  const { identifier, password } = input;
  const user = await deps.users.findByLogin(identifier);
  // The user's username and email are one account; an unknown identifier is its own.
  const account = user ? userAccount(user.id) : `login:${loginKey(identifier).key}`;
  // Exactly one bcrypt compare on every path, at the current cost for unknown users, so
  // neither the answer nor its timing tells whether the account exists.
  const attempt = await checkPassword(deps, {
    account,
    hash: user?.passwordHash,
    password,
    sourceIp: input.sourceIp,
  });
  if (!user || !attempt) throw new UnauthorizedError('invalid_credentials');
  // A successful attempt is given back.
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
