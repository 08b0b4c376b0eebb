// The account deletion of a Config (DELETE /account), and the authenticator of its route: the
// user, API key, job and record stores over the Config's table, and the login limits that
// POST /token counts against.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { disconnectAll } from '../../oauth/connected-apps';
import { createGrantStore } from '../../oauth/tokens/grant-store';
import { createQuota } from '../../store/quota';
import { createJobStore } from '../../summaries/store/jobs';
import { createRecordStore } from '../../summaries/store/records';
import { createApiKeyVerifier } from '../api-keys/service';
import { createApiKeyStore } from '../api-keys/store';
import { type Authenticator, createBearerAuthenticator } from '../auth/bearer';
import { tokenSettingsFrom } from '../auth/settings';
import type { DeletionDependencies } from './deletion';
import { passwordCheckFrom } from './limits';
import { createUserStore } from './store';

/**
 * What deleteAccount() needs, over `db`, and the authenticator of DELETE /account: the one
 * authenticator that also finds a user whose deletion has begun, so that a deletion interrupted
 * half-way is finished by the same request sent again (every other function's misses them).
 */
export function accountDeletionFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  logger: Logger,
): { deletion: DeletionDependencies; authenticate: Authenticator } {
  const table = config.TABLE_NAME;
  const users = createUserStore(db, table);
  const keys = createApiKeyStore(db, table);
  const jobs = createJobStore(db, table);
  const grants = createGrantStore(db, table);
  const records = createRecordStore(db, table, { leaseMs: config.JOB_LEASE_SECONDS * 1000 });
  const deletion: DeletionDependencies = {
    users,
    apiKeys: {
      list: (userId) => keys.list(userId),
      remove: (userId, id) => keys.remove(userId, id),
      removeList: (userId) => keys.removeList(userId),
    },
    grants: { endAll: (userId) => disconnectAll(grants, userId) },
    jobs: {
      list: (userId, page) => jobs.list(userId, page),
      remove: (id) => jobs.remove(id),
      forget: (key, jobId, userId) => records.forget(key, jobId, userId),
    },
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
