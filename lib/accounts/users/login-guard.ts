// Limits on login attempts, reserved before any password is checked, so that guesses sent in
// parallel cannot outrun them (OWASP Authentication Cheat Sheet, "Login throttling" and
// "Account lockout"; ASVS 5.0 V6.1.1, V6.3.1). Two counters per attempt, in DynamoDB (Lambda
// instances share no memory), each for one window:
//   - the account from one source address: LOGIN_MAX_FAILURES (5) - an attacker's address is
//     locked out of the account, while its owner logs in from anywhere else;
//   - the account from everywhere: LOGIN_ACCOUNT_MAX_FAILURES (100) - a distributed guess
//     stops too. Its owner cannot be told from the attackers at a new address, so that lock
//     holds for new addresses; an address the account logged in from in the last
//     KNOWN_ADDRESS_DAYS is still let in (with its own per-address limit), so that the owner
//     is not locked out where they usually log in.
// An account is the user (its username and its email are one account) or, for identifiers
// no user has, the normalised identifier: real and unknown accounts behave exactly alike.
// Keys are hashed, so the table never holds addresses or the identifiers people typed.
import { createHash } from 'node:crypto';
import type { WindowCounter } from '../../aws/window-counter';
import { TooManyRequestsError } from '../../errors';
import { sourceKey } from './address';
import type { KnownAddresses } from './known-addresses';

export interface LoginGuardSettings {
  /** LOGIN_MAX_FAILURES: failed attempts per account from one address per window. */
  maxFailures: number;
  /** LOGIN_ACCOUNT_MAX_FAILURES: failed attempts per account from all addresses per window. */
  accountMaxFailures: number;
  windowSeconds: number;
}

/** One reserved login attempt: a failure until it says otherwise. */
export interface LoginAttempt {
  /** The password was right: the attempt is given back, and the address remembered. */
  succeeded(): Promise<void>;
  /**
   * The password was right, and no log-in follows (it confirmed an account's deletion): the
   * attempt is given back; the address is not remembered for an account about to go.
   */
  confirmed(): Promise<void>;
  /** No password was checked (another limit refused it): the attempt is given back. */
  abandoned(): Promise<void>;
}

export interface LoginGuard {
  /**
   * Reserves an attempt on `account` from `source` (an IP address).
   * @throws TooManyRequestsError (429 + Retry-After) while either limit is used up.
   */
  begin(account: string, source: string): Promise<LoginAttempt>;
}

const hashed = (value: string) => createHash('sha256').update(value).digest('base64url');

/** A guard over the window counters. */
export function createLoginGuard(
  counter: WindowCounter,
  known: KnownAddresses,
  settings: LoginGuardSettings,
): LoginGuard {
  const locked = (retryAfterSeconds: number) =>
    new TooManyRequestsError(
      retryAfterSeconds,
      'Too many failed logins for this account; try again later.',
      'too-many-login-attempts',
    );
  return {
    async begin(account, source) {
      const accountHash = hashed(account);
      const client = sourceKey(source);
      const accountKey = `LOGINFAIL#${accountHash}`;
      const fromSource = `${accountKey}#${client}`;
      const perSource = await counter.reserve(
        fromSource,
        settings.maxFailures,
        settings.windowSeconds,
      );
      if (!perSource.ok) throw locked(perSource.retryAfterSeconds);
      const taken = [fromSource];
      const perAccount = await counter.reserve(
        accountKey,
        settings.accountMaxFailures,
        settings.windowSeconds,
      );
      if (perAccount.ok) {
        taken.push(accountKey);
      } else if (!(await known.knows(accountHash, client))) {
        await counter.release(fromSource);
        throw locked(perAccount.retryAfterSeconds);
      }
      const giveBack = () => Promise.all(taken.map((key) => counter.release(key)));
      return {
        succeeded: async () => {
          await Promise.all([giveBack(), known.remember(accountHash, client)]);
        },
        confirmed: async () => {
          await giveBack();
        },
        abandoned: async () => {
          await giveBack();
        },
      };
    },
  };
}
