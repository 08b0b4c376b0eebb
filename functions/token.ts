// POST /token: log in with username or email and password (JSON or an OAuth2 password-grant form).
import { tokenSettingsFrom } from '../lib/auth/settings';
import { createDocumentClient } from '../lib/aws/dynamodb';
import { createWindowCounter } from '../lib/aws/window-counter';
import type { Config } from '../lib/config';
import { createHandler, lambdaEntry } from '../lib/http/handler';
import { json } from '../lib/http/reply';
import { logger } from '../lib/logger';
import { accountRoutes } from '../lib/routes/accounts';
import { createBcryptBudget } from '../lib/users/bcrypt-budget';
import { createKnownAddresses } from '../lib/users/known-addresses';
import { logIn } from '../lib/users/login';
import { createLoginGuard } from '../lib/users/login-guard';
import { createUserStore } from '../lib/users/store';

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config) {
  const db = createDocumentClient(config);
  const counter = createWindowCounter(db, config.TABLE_NAME);
  const login = {
    users: createUserStore(db, config.TABLE_NAME),
    guard: createLoginGuard(counter, createKnownAddresses(db, config.TABLE_NAME), {
      maxFailures: config.LOGIN_MAX_FAILURES,
      accountMaxFailures: config.LOGIN_ACCOUNT_MAX_FAILURES,
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
    }),
    budget: createBcryptBudget(counter, {
      maxPerAddress: config.BCRYPT_MAX_PER_IP,
      windowSeconds: config.BCRYPT_WINDOW_SECONDS,
    }),
    tokenSettings: tokenSettingsFrom(config),
    bcryptCost: config.BCRYPT_COST,
    logger,
  };
  return createHandler(accountRoutes.token, config, async ({ body, event }) => {
    const identifier = body.username ?? body.email ?? '';
    const { token, expiresIn } = await logIn(login, {
      identifier,
      password: body.password,
      sourceIp: event.requestContext.http.sourceIp,
    });
    return json(200, { access_token: token, token_type: 'bearer', expires_in: expiresIn });
  });
}

export const handler = lambdaEntry(create);
