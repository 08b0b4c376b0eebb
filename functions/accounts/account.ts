// DELETE /account: delete the caller's account and what it owns, with a login token and the
// account's password; 204.

import { deleteAccount } from '../../lib/accounts/users/deletion';
import { accountDeletionFrom } from '../../lib/accounts/users/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import { lambdaEntry } from '../../lib/http/entry';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { ownedGrantsFrom } from '../../lib/oauth/wiring';
import { noContent } from '../../lib/reply';
import { accountRoutes } from '../../lib/routes/accounts';
import { ownedJobsFrom } from '../../lib/summaries/wiring';

/** The function's handler, built from a Config (the local host and tests pass their own). */
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

export const handler = lambdaEntry(create);
