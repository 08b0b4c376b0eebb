// A budget of bcrypt runs per source address, shared by log-ins (one compare each) and
// registrations (one hash each). The lock-out counters of login-guard.ts are per account, and an
// identifier nobody has is an account of its own, so without this one address could make the
// server hash without limit by trying new names (or by registering taken ones, which are given
// back). Taken atomically in DynamoDB before bcrypt runs, and never given back: the work is done.
// OWASP API4:2023 (unrestricted resource consumption).
import type { WindowCounter } from '../../aws/window-counter';
import { TooManyRequestsError } from '../../errors';
import { sourceKey } from './address';

export interface BcryptBudgetSettings {
  /** BCRYPT_MAX_PER_IP: bcrypt runs per source address per window; 0 means no limit. */
  maxPerAddress: number;
  /** BCRYPT_WINDOW_SECONDS. */
  windowSeconds: number;
}

export interface BcryptBudget {
  /**
   * Takes one bcrypt run for the address `source`, before it runs.
   * @throws TooManyRequestsError (429 + Retry-After) while the address's budget is used up.
   */
  spend(source: string): Promise<void>;
}

/** A budget over the window counters. */
export function createBcryptBudget(
  counter: WindowCounter,
  settings: BcryptBudgetSettings,
): BcryptBudget {
  return {
    async spend(source) {
      if (settings.maxPerAddress === 0) return;
      const taken = await counter.reserve(
        `BCRYPT#${sourceKey(source)}`,
        settings.maxPerAddress,
        settings.windowSeconds,
      );
      if (!taken.ok) {
        throw new TooManyRequestsError(
          taken.retryAfterSeconds,
          'Too many password checks from this address; try again later.',
          'too-many-password-checks',
        );
      }
    },
  };
}
