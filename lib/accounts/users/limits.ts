// The limits a password check counts against, from a Config: the login guard (failed attempts
// per account) and the bcrypt budget (bcrypt runs per
// address), over the table's window counters. POST /token and DELETE /account check passwords within the very
// same limits, and POST /register spends the same budget: one place builds them for all three.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createWindowCounter, type WindowCounter } from '../../aws/window-counter';
import type { Config } from '../../config';
import { type BcryptBudget, createBcryptBudget } from './bcrypt-budget';
import { createKnownAddresses } from './known-addresses';
import type { PasswordCheckDependencies } from './login';
import { createLoginGuard } from './login-guard';

/** The bcrypt budget of `config` (BCRYPT_MAX_PER_IP per BCRYPT_WINDOW_SECONDS) over `counter`. */
export function bcryptBudgetFrom(config: Config, counter: WindowCounter): BcryptBudget {
  return createBcryptBudget(counter, {
    maxPerAddress: config.BCRYPT_MAX_PER_IP,
    windowSeconds: config.BCRYPT_WINDOW_SECONDS,
  });
}

/** What checkPassword() needs, from `config`: the LOGIN_* limits, the budget, BCRYPT_COST. */
export function passwordCheckFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  counter: WindowCounter = createWindowCounter(db, config.TABLE_NAME),
): PasswordCheckDependencies {
  return {
    guard: createLoginGuard(counter, createKnownAddresses(db, config.TABLE_NAME), {
      maxFailures: config.LOGIN_MAX_FAILURES,
      accountMaxFailures: config.LOGIN_ACCOUNT_MAX_FAILURES,
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
    }),
    budget: bcryptBudgetFrom(config, counter),
    bcryptCost: config.BCRYPT_COST,
  };
}
