// Whether a route needs a token is in its type: a protected route's handler cannot be built
// without an authenticator (and its action gets a User), a public one cannot take one (and its
// action gets no user). Type-checked only, by vitest's typecheck (`npm test`): an expectation
// that does not hold, or an @ts-expect-error with no error under it, fails its test.
import { describe, expectTypeOf, it } from 'vitest';
import type { Authenticator } from '../../../../lib/accounts/auth/bearer';
import type { User } from '../../../../lib/accounts/users/store';
import type { Config } from '../../../../lib/config';
import { createRouteStack, type LambdaHandler } from '../../../../lib/http/stack/route-stack';
import { json } from '../../../../lib/reply';
import { routes } from '../../../../lib/routes';

declare const config: Config;
declare const authenticate: Authenticator;

describe('createRouteStack', () => {
  it('builds a protected route with an authenticator, handing its action a User', () => {
    const handler = createRouteStack(
      routes.summarize,
      config,
      async ({ user }) => {
        expectTypeOf(user).toEqualTypeOf<User>();
        return json(200, { id: user.id });
      },
      { authenticate },
    );

    expectTypeOf(handler).toEqualTypeOf<LambdaHandler>();
  });

  it('builds a public route without an authenticator, handing its action no user', () => {
    createRouteStack(routes.register, config, async ({ user }) => {
      expectTypeOf(user).toBeUndefined();
      return json(201, {});
    });
  });

  it('refuses a protected route without an authenticator', () => {
    // @ts-expect-error /summarize needs a token: no authenticator, no handler
    createRouteStack(routes.summarize, config, async () => json(200, {}));
  });

  it('refuses a public route with an authenticator', () => {
    // @ts-expect-error /register is public: it takes no authenticator
    createRouteStack(routes.register, config, async () => json(201, {}), { authenticate });
  });
});
