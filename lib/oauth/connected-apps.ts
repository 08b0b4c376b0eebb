// Connected apps, as the person sees them (the page's list, Disconnect) and as deleting their
// account ends them: the grants on their list, each read from its own item (an entry whose
// grant expired or ended is taken off the list on the way).
import { RANDOM_ID_PATTERN } from '../util/random-id';
import { unknownConnectedApp } from './errors';
import type { ConnectedApp } from './schemas';
import { grantedScope } from './scopes';
import type { GrantStore } from './tokens/grant-store';

type Grants = Pick<GrantStore, 'listedIds' | 'get' | 'unlist' | 'end' | 'removeList'>;

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** The person's connected apps, newest first. */
export async function listConnectedApps(
  grants: Grants,
  userId: string,
  now: number,
): Promise<ConnectedApp[]> {
  const ids = await grants.listedIds(userId);
  const found = await Promise.all(ids.map((id) => grants.get(id, now)));
  const apps: ConnectedApp[] = [];
  for (const [i, grant] of found.entries()) {
    const id = ids[i] as string;
    if (!grant || grant.userId !== userId) {
      await grants.unlist(userId, id);
      continue;
    }
    apps.push({
      id,
      client_id: grant.clientId,
      client_name: grant.clientName === '' ? null : grant.clientName,
      scope: grantedScope(grant.scope),
      connected_at: iso(grant.createdAt),
      last_used_at: grant.lastUsedAt === undefined ? null : iso(grant.lastUsedAt),
    });
  }
  return apps.sort(
    (a, b) => b.connected_at.localeCompare(a.connected_at) || a.id.localeCompare(b.id),
  );
}

/**
 * Disconnects one of the person's apps: its access and refresh tokens are refused from the next
 * request. @throws NotFoundError when it is not theirs or no longer connected.
 */
export async function disconnectApp(
  grants: Grants,
  userId: string,
  id: string,
  now: number,
): Promise<void> {
  const grant = RANDOM_ID_PATTERN.test(id) ? await grants.get(id, now) : undefined;
  if (!grant || grant.userId !== userId) throw unknownConnectedApp();
  await grants.end(id);
}

/** Ends every grant of a person and removes their list (deleting the account). The number ended. */
export async function disconnectAll(grants: Grants, userId: string): Promise<number> {
  const ids = await grants.listedIds(userId);
  const ended = await Promise.all(ids.map((id) => grants.end(id)));
  await grants.removeList(userId);
  return ended.filter((grant) => grant !== undefined).length;
}
