// Registration and login: the rules of lib/auth applied to the user store.

import {
  dummyHash,
  fitsBcrypt,
  hashPassword,
  passwordProblem,
  verifyPassword,
} from '../auth/passwords';
import { getTokenSettings } from '../auth/settings';
import { type IssuedToken, issueToken } from '../auth/tokens';
import type { Config } from '../config';
import { UnauthorizedError, ValidationError } from '../http/errors';
import type { LoginGuard } from './login-guard';
import type { User, UserStore } from './store';

export interface Accounts {
  /**
   * Creates an account.
   * @throws ValidationError for a refused password; ConflictError when the username or email is taken.
   */
  register(input: { username: string; email: string; password: string }): Promise<User>;
  /**
   * Checks a login and issues a token.
   * @throws UnauthorizedError (one shape for every failure); TooManyRequestsError when locked out.
   */
  login(input: { identifier: string; password: string }): Promise<IssuedToken>;
}

export function createAccounts(deps: {
  users: UserStore;
  guard: LoginGuard;
  config: Config;
}): Accounts {
  const { users, guard, config } = deps;
  return {
    async register({ username, email, password }) {
      const problem = passwordProblem(password);
      if (problem) throw new ValidationError([problem], `The password ${problem.message}.`);
      const passwordHash = await hashPassword(password, config.BCRYPT_COST);
      return users.create({ username, email, passwordHash });
    },

    async login({ identifier, password }) {
      // Both reads at once: a lock-out still wins, and a login costs one round trip less.
      const [, user] = await Promise.all([
        guard.assertAllowed(identifier),
        users.findByLogin(identifier),
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
      return issueToken(await getTokenSettings(config), user.id);
    },
  };
}
