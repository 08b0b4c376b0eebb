// The composition root of the function whose entry is token.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { tokenSettingsFrom } from '../../lib/accounts/auth/settings';
import { passwordCheckFrom } from '../../lib/accounts/users/limits';
import { logIn } from '../../lib/accounts/users/login';
import { createUserStore } from '../../lib/accounts/users/store';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { json } from '../../lib/reply';
import { accountRoutes } from '../../lib/routes/accounts';

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config) {
  const db = createDocumentClient(config);
  const login = {
    users: createUserStore(db, config.TABLE_NAME),
    ...passwordCheckFrom(config, db),
    tokenSettings: tokenSettingsFrom(config),
    logger,
  };
  return serve(
    'token',
    accountRoutes,
    {
      token: async ({ body, event }) => {
        const identifier = body.username ?? body.email ?? '';
        const { token, expiresIn } = await logIn(login, {
          identifier,
          password: body.password,
          sourceIp: event.requestContext.http.sourceIp,
        });
        return json(200, { access_token: token, token_type: 'bearer', expires_in: expiresIn });
      },
    },
    config,
  );
}
