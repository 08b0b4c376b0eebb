// Deleting an account (DELETE /account): the password confirmed as a log-in checks it, then the
// account and what it owns, in an order that is safe to interrupt at any point:
//   1. the user is marked and their username and email freed, in one transaction
//      (store.beginDeletion): from here on nothing logs in, no token and no API key of theirs is
//      let in anywhere, and the names can be registered again, by anyone;
//   2. their API keys: each key's lookup item (what a request's key finds), then their list;
//   3. the apps they connected with OAuth: each grant (its tokens are refused from then on),
//      then their list;
//   4. their summary jobs (the history), each taken off its summary record first (records.forget):
//      an unfinished one leaves its run, so no model works for nobody, and the user's charge for
//      a run goes (the records are shared and belong to no one: they stay, naming neither);
//   5. their daily quota counters (QUOTA#<id>#<day>), after the records, so that a failed run's
//      unit given back meanwhile makes no new one;
//   6. the user's record, last: until then, the same request, with the same token and password,
//      finds the marked user and finishes the deletion (every step does nothing the second time).
// What is left to expire (each keyed by a hash, with a TTL): the login counters and the addresses
// of earlier log-ins (LOGINFAIL#, LOGINOK#: they cannot even be found without a scan).
import type { Logger } from '../../logger';
import { wrongPassword } from './errors';
import { checkPassword, type PasswordCheckDependencies, userAccount } from './login';
import type { User, UserStore } from './store';

/** A user's API keys as the deletion sees them (the key store's own functions). */
export interface OwnedApiKeys {
  list(userId: string): Promise<{ id: string }[]>;
  /** Deletes one key (its lookup item and its entry in the list); false when it is gone. */
  remove(userId: string, id: string): Promise<boolean>;
  /** Deletes the user's (by now empty) list of keys. */
  removeList(userId: string): Promise<void>;
}

/** A user's connected apps as the deletion sees them: each grant ended, then their list. */
export interface OwnedGrants {
  /** Ends every grant of the user and removes their list; how many there were. */
  endAll(userId: string): Promise<number>;
}

/** A user's summary jobs as the deletion sees them (the job and record stores' functions). */
export interface OwnedJobs {
  list(
    userId: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ jobs: { id: string; key: string }[]; next: string | null }>;
  remove(id: string): Promise<void>;
  /**
   * Takes a job and its user off the job's summary record (records.forget): the run stops when
   * no other job waits for it, and the user's charge for it goes.
   */
  forget(key: string, jobId: string, userId: string): Promise<void>;
}

export interface DeletionDependencies extends PasswordCheckDependencies {
  users: Pick<UserStore, 'beginDeletion' | 'finishDeletion'>;
  apiKeys: OwnedApiKeys;
  grants: OwnedGrants;
  jobs: OwnedJobs;
  /** Deletes the user's daily quota counters (keyed by their id). */
  quota: { forget(userId: string): Promise<void> };
  logger: Logger;
}

/** Jobs read and deleted at a time: a page of the index, deleted side by side. */
const JOB_PAGE = 25;

/**
 * Deletes `user`'s account once `password` is theirs; `user` is the one the access token names,
 * found also when an earlier request began the deletion (store.getForDeletion).
 * @throws ForbiddenError (wrong-password) when it is not, and nothing is deleted;
 * TooManyRequestsError when the account is locked or the address used up its password checks
 * (the same limits as POST /token: a wrong password here is a failed login);
 * ServiceUnavailableError when DynamoDB fails, after which the same request finishes the job.
 */
export async function deleteAccount(
  deps: DeletionDependencies,
  input: { user: User; password: string; sourceIp: string },
): Promise<void> {
  const { user } = input;
  const attempt = await checkPassword(deps, {
    account: userAccount(user.id),
    hash: user.passwordHash,
    password: input.password,
    sourceIp: input.sourceIp,
  });
  if (!attempt) throw wrongPassword();
  await attempt.confirmed();

  await deps.users.beginDeletion(user);
  deps.logger.info('account deletion begun', { user_id: user.id });

  const keys = await deps.apiKeys.list(user.id);
  await Promise.all(keys.map((key) => deps.apiKeys.remove(user.id, key.id)));
  await deps.apiKeys.removeList(user.id);
  const apps = await deps.grants.endAll(user.id);

  let removedJobs = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.jobs.list(user.id, {
      limit: JOB_PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    await Promise.all(
      page.jobs.map(async (job) => {
        // The record first: once the job is gone, nothing leads to it.
        await deps.jobs.forget(job.key, job.id, user.id);
        await deps.jobs.remove(job.id);
      }),
    );
    removedJobs += page.jobs.length;
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
  // After the records: a failed run's unit given back after this finds no counter to make anew.
  await deps.quota.forget(user.id);

  await deps.users.finishDeletion(user.id);
  deps.logger.info('account deleted', {
    user_id: user.id,
    api_keys: keys.length,
    connected_apps: apps,
    jobs: removedJobs,
  });
}
