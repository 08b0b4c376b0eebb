// The composition root of the function whose entry is register.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { maskEmail } from '../../lib/accounts/users/identity';
import { bcryptBudgetFrom } from '../../lib/accounts/users/limits';
import { registerUser } from '../../lib/accounts/users/registration';
import { createUserStore } from '../../lib/accounts/users/store';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { createWindowCounter } from '../../lib/aws/window-counter';
import type { Config } from '../../lib/config';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { json } from '../../lib/reply';
import { accountRoutes } from '../../lib/routes/accounts';

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config) {
  const db = createDocumentClient(config);
  const counter = createWindowCounter(db, config.TABLE_NAME);
  const registration = {
    users: createUserStore(db, config.TABLE_NAME),
    bcryptCost: config.BCRYPT_COST,
    counter,
    maxPerAddressPerHour: config.REGISTER_MAX_PER_IP,
    budget: bcryptBudgetFrom(config, counter),
  };
  return serve(
    'register',
    accountRoutes,
    {
      register: async ({ body, event }) => {
        const sourceIp = event.requestContext.http.sourceIp;
        const user = await registerUser(registration, { ...body, sourceIp });
        logger.info('user registered', { user_id: user.id, email: maskEmail(user.email) });
        return json(201, {
          message: `User ${user.username} registered successfully.`,
          username: user.username,
        });
      },
    },
    config,
  );
}
