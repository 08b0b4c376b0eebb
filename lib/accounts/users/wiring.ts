// The account deletion of a Config (DELETE /account), and the authenticator of its route: the
// user and API key stores over the Config's table, and the login limits that POST /token counts
// against. The connected apps and the summary jobs a user owns belong to areas that import this
// one, so their function hands them in.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { createQuota } from '../../store/quota';
import { createApiKeyVerifier } from '../api-keys/service';
import { createApiKeyStore } from '../api-keys/store';
import { type Authenticator, createBearerAuthenticator } from '../auth/bearer';
import { tokenSettingsFrom } from '../auth/settings';
import type { DeletionDependencies, OwnedGrants, OwnedJobs } from './deletion';
import { passwordCheckFrom } from './limits';
import { createUserStore } from './store';

/**
 * What deleteAccount() needs, over `db` and with the user's grants and jobs as `owned` gives
 * them, and the authenticator of DELETE /account: the one authenticator that also finds a user
 * whose deletion has begun, so that a deletion interrupted half-way is finished by the same
 * request sent again (every other function's misses them).
 */
export function accountDeletionFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
  owned: { grants: OwnedGrants; jobs: OwnedJobs },
): { deletion: DeletionDependencies; authenticate: Authenticator } {
  const table = config.TABLE_NAME;
  const users = createUserStore(db, table);
  const keys = createApiKeyStore(db, table);
  const deletion: DeletionDependencies = {
    users,
    apiKeys: {
      list: (userId) => keys.list(userId),
      remove: (userId, id) => keys.remove(userId, id),
      removeList: (userId) => keys.removeList(userId),
    },
    ...owned,
    quota: createQuota(db, table, config.SUMMARY_DAILY_QUOTA),
    // The very limits POST /token counts against: a wrong password here is a failed login.
    ...passwordCheckFrom(config, db),
    logger,
  };
  const authenticate = createBearerAuthenticator({
    tokenSettings: tokenSettingsFrom(config),
    findUser: (id) => users.getForDeletion(id),
    verifyApiKey: createApiKeyVerifier(keys, logger),
  });
  return { deletion, authenticate };
}
