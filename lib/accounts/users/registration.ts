// Registration: the password rules of lib/auth applied before the user store, a limit on
// accounts made from one address (each account has a summary quota of its own: without it, one
// address could make accounts as fast as it likes; OWASP API6:2023), and the address's bcrypt
// budget. Its own module so that only /register bundles the common-password list.

import type { WindowCounter } from '../../aws/window-counter';
import { TooManyRequestsError, ValidationError } from '../../errors';
import { hashPassword, passwordProblem } from '../auth/passwords';
import { sourceKey } from './address';
import type { BcryptBudget } from './bcrypt-budget';
import type { User, UserStore } from './store';

const HOUR_SECONDS = 3_600;

export interface RegistrationDependencies {
  users: UserStore;
  bcryptCost: number;
  counter: WindowCounter;
  /** REGISTER_MAX_PER_IP: successful registrations per address per hour; 0 means no limit. */
  maxPerAddressPerHour: number;
  /** bcrypt runs per source address (BCRYPT_MAX_PER_IP): a taken name costs a hash too. */
  budget: BcryptBudget;
}

/**
 * Creates an account.
 * @throws ValidationError for a refused password; TooManyRequestsError when the address made
 * too many accounts this hour or used up its bcrypt budget; ConflictError when the username or
 * email is taken; ServiceUnavailableError when DynamoDB is unavailable.
 */
export async function registerUser(
  deps: RegistrationDependencies,
  input: { username: string; email: string; password: string; sourceIp: string },
): Promise<User> {
  const problem = passwordProblem(input.password);
  if (problem) throw new ValidationError([problem], `The password ${problem.message}.`);
  const key = `REGISTER#${sourceKey(input.sourceIp)}`;
  if (deps.maxPerAddressPerHour > 0) {
    // Reserved before the work: parallel registrations cannot outrun the limit.
    const slot = await deps.counter.reserve(key, deps.maxPerAddressPerHour, HOUR_SECONDS);
    if (!slot.ok) {
      throw new TooManyRequestsError(
        slot.retryAfterSeconds,
        'Too many accounts were registered from this address; try again later.',
        'too-many-registrations',
      );
    }
  }
  try {
    await deps.budget.spend(input.sourceIp);
    const passwordHash = await hashPassword(input.password, deps.bcryptCost);
    return await deps.users.create({ username: input.username, email: input.email, passwordHash });
  } catch (error) {
    // Only accounts made count (a taken name, a spent budget or a failure of ours gives the
    // slot back; the budget's hash, once made, stays spent).
    if (deps.maxPerAddressPerHour > 0) await deps.counter.release(key);
    throw error;
  }
}
