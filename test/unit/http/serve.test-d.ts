// What serve's types refuse (lib/http/serve.ts): a function hands exactly one action per route
// the table says it serves, named as the route, and an authenticator exactly when one of them
// needs a token; each action is given its route's validated inputs. Checked by the typecheck
// (an @ts-expect-error that is not needed fails it), and by vitest's typecheck.
import { describe, expectTypeOf, it } from 'vitest';
import type { Authenticator } from '../../../lib/accounts/auth/bearer';
import type { User } from '../../../lib/accounts/users/store';
import type { Config } from '../../../lib/config';
import { type Actions, serve } from '../../../lib/http/serve';
import { json, noContent } from '../../../lib/reply';
import { accountRoutes } from '../../../lib/routes/accounts';
import { summaryRoutes } from '../../../lib/routes/summaries';

declare const config: Config;
declare const authenticate: Authenticator;
const listSummaries = async () => json(200, { items: [] });
const getSummary = async () => json(200, {});
const cancelSummary = async () => noContent();

describe('serve', () => {
  it('asks for one action per route the function serves, by the route’s name', () => {
    expectTypeOf<keyof Actions<typeof summaryRoutes, 'summaries'>>().toEqualTypeOf<
      'listSummaries' | 'getSummary' | 'cancelSummary'
    >();
    expectTypeOf<keyof Actions<typeof summaryRoutes, 'summarize'>>().toEqualTypeOf<'summarize'>();
  });

  it('refuses a missing action', () => {
    // @ts-expect-error cancelSummary is missing: DELETE /summaries/{id} would have no action
    serve('summaries', summaryRoutes, { listSummaries, getSummary }, config, { authenticate });
  });

  it('refuses an extra action, even one of a route of the same area', () => {
    const summarize = async () => json(200, {});
    serve(
      'summaries',
      summaryRoutes,
      // @ts-expect-error POST /summarize is the summarize function's, not this one's
      { listSummaries, getSummary, cancelSummary, summarize },
      config,
      { authenticate },
    );
  });

  it('needs an authenticator for protected routes and takes none for public ones', () => {
    // @ts-expect-error the summaries routes need a token: no authenticator, no function
    serve('summaries', summaryRoutes, { listSummaries, getSummary, cancelSummary }, config);
    const register = async () => json(201, {});
    // @ts-expect-error POST /register is public: it takes no authenticator
    serve('register', accountRoutes, { register }, config, { authenticate });
  });

  it('gives each action its route’s validated path parameters, query and user', () => {
    serve(
      'summaries',
      summaryRoutes,
      {
        listSummaries: async ({ query, user }) => {
          expectTypeOf(query.limit).toEqualTypeOf<number>();
          expectTypeOf(user).toEqualTypeOf<User>();
          return json(200, { items: [] });
        },
        getSummary: async ({ params }) => {
          expectTypeOf(params).toEqualTypeOf<{ id: string }>();
          return json(200, {});
        },
        cancelSummary,
      },
      config,
      { authenticate },
    );
    serve(
      'register',
      accountRoutes,
      {
        register: async ({ body, user }) => {
          expectTypeOf(body.username).toEqualTypeOf<string>();
          expectTypeOf(user).toEqualTypeOf<undefined>();
          return json(201, {});
        },
      },
      config,
    );
  });
});
