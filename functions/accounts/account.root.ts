// The composition root of the function whose entry is account.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { deleteAccount } from '../../lib/accounts/users/deletion';
import { accountDeletionFrom } from '../../lib/accounts/users/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { ownedGrantsFrom } from '../../lib/oauth/wiring';
import { noContent } from '../../lib/reply';
import { accountRoutes } from '../../lib/routes/accounts';
import { ownedJobsFrom } from '../../lib/summaries/wiring';

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config) {
  const db = createDocumentClient(config);
  const { deletion, authenticate } = accountDeletionFrom(config, db, logger, {
    grants: ownedGrantsFrom(config, db),
    jobs: ownedJobsFrom(config, db),
  });
  return serve(
    'account',
    accountRoutes,
    {
      deleteAccount: async ({ user, body, event }) => {
        await deleteAccount(deletion, {
          user,
          password: body.password,
          sourceIp: event.requestContext.http.sourceIp,
        });
        return noContent();
      },
    },
    config,
    { authenticate },
  );
}
