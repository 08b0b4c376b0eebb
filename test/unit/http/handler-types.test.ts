// Whether a route needs a token is in its type: a protected route's handler cannot be built
// without an authenticator (and gets a User), a public one cannot take one. These lines are
// checked by the typecheck of `npm test` (an @ts-expect-error that is not needed fails it).
import { describe, expect, it } from 'vitest';
import type { Authenticator } from '../../../lib/auth/bearer';
import { loadConfig } from '../../../lib/config';
import { createHandler } from '../../../lib/http/handler';
import { json } from '../../../lib/http/reply';
import { routes } from '../../../lib/routes';
import type { User } from '../../../lib/users/store';

const config = loadConfig({});
const authenticate: Authenticator = async () => {
  throw new Error('not called');
};

describe('createHandler types', () => {
  it('builds a protected route with an authenticator, handing its action a User', () => {
    const handler = createHandler(
      routes.summarize,
      config,
      async ({ user }) => {
        const known: User = user;
        return json(200, { id: known.id });
      },
      { authenticate },
    );

    expect(typeof handler).toBe('function');
  });

  it('refuses a protected route without an authenticator, and a public one with one', () => {
    const unprotected = () =>
      // @ts-expect-error /summarize needs a token: no authenticator, no handler
      createHandler(routes.summarize, config, async () => json(200, {}));
    const overGuarded = () =>
      // @ts-expect-error /register is public: it takes no authenticator
      createHandler(routes.register, config, async () => json(201, {}), { authenticate });

    expect([unprotected, overGuarded].every((build) => typeof build === 'function')).toBe(true);
  });
});
