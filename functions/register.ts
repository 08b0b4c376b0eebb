// POST /register: create an account; 201 with a message.
import { createHandler } from '../lib/http/handler';
import { logger } from '../lib/http/logger';
import { json } from '../lib/http/reply';
import { routes } from '../lib/routes';
import { getServices } from '../lib/services';
import { maskEmail } from '../lib/users/identity';
import { registerUser } from '../lib/users/registration';

export const handler = createHandler(routes.register, async ({ body }) => {
  const user = await registerUser(getServices(), body);
  logger.info('user registered', { user_id: user.id, email: maskEmail(user.email) });
  return json(201, {
    message: `User ${user.username} registered successfully.`,
    username: user.username,
  });
});
