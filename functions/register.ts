// POST /register: create an account; 201 with a message.
import { createDocumentClient } from '../lib/aws/dynamodb';
import type { Config } from '../lib/config';
import { createHandler, lambdaEntry } from '../lib/http/handler';
import { json } from '../lib/http/reply';
import { logger } from '../lib/logger';
import { routes } from '../lib/routes';
import { maskEmail } from '../lib/users/identity';
import { registerUser } from '../lib/users/registration';
import { createUserStore } from '../lib/users/store';

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config) {
  const users = createUserStore(createDocumentClient(config), config.TABLE_NAME);
  return createHandler(routes.register, config, async ({ body }) => {
    const user = await registerUser({ users, bcryptCost: config.BCRYPT_COST }, body);
    logger.info('user registered', { user_id: user.id, email: maskEmail(user.email) });
    return json(201, {
      message: `User ${user.username} registered successfully.`,
      username: user.username,
    });
  });
}

export const handler = lambdaEntry(create);
