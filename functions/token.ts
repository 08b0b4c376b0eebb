// POST /token: log in with username or email and password (JSON or an OAuth2 password-grant form).
import { createHandler } from '../lib/http/handler';
import { json } from '../lib/http/reply';
import { routes } from '../lib/routes';
import { getServices } from '../lib/services';
import { logIn } from '../lib/users/login';

export const handler = createHandler(routes.token, async ({ body }) => {
  const identifier = body.username ?? body.email ?? '';
  const { token, expiresIn } = await logIn(getServices(), { identifier, password: body.password });
  return json(200, { access_token: token, token_type: 'bearer', expires_in: expiresIn });
});
