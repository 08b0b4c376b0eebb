// API keys: making, listing and deleting a user's keys (the /api-keys routes), and checking a
// key a request brings (the bearer authenticator).
import type { Logger } from '../../logger';
import { randomId } from '../../util/random-id';
import type { User } from '../users/store';
import { unknownApiKey } from './errors';
import type { KeyHolder } from './key-lookup';
import { DAY_MS } from './limits';
import type { ApiKeyView, CreatedApiKey } from './schemas';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './secret';
import type { ApiKeyStore, ListedApiKey, StoredApiKey } from './store';

/**
 * How fresh last_used_at is: a use is written at most once per this long per key, so a busy key
 * costs one read per request and a write a minute, not a write per request.
 */
export const LAST_USED_RESOLUTION_MS = 60_000;

const iso = (epochMs: number) => new Date(epochMs).toISOString();

function view(key: ListedApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    created_at: iso(key.createdAt),
    last_used_at: key.lastUsedAt === undefined ? null : iso(key.lastUsedAt),
    expires_at: key.keyExpiresAt === undefined ? null : iso(key.keyExpiresAt),
  };
}

/** The /api-keys routes' work, for the authenticated user. */
export function createApiKeyService(store: ApiKeyStore, logger: Logger) {
  return {
    /**
     * A new key for the user, with its secret (the only time it is shown): as listed, plus the
     * key. It expires `expiresInDays` days from now, or never without them.
     * @throws ConflictError (too-many-api-keys) when they hold API_KEYS_PER_USER already.
     */
    async create(user: User, name: string, expiresInDays?: number): Promise<CreatedApiKey> {
      const key = generateApiKey();
      const createdAt = Date.now();
      const stored: StoredApiKey = { id: randomId(), name, hash: hashApiKey(key), createdAt };
      if (expiresInDays !== undefined) stored.keyExpiresAt = createdAt + expiresInDays * DAY_MS;
      await store.add(user.id, stored);
      // The id only: never the key, its hash or its name (which the user chose).
      logger.info('api key created', { api_key_id: stored.id });
      // As GET /api-keys will list it (never used yet), with the key after its name.
      const { id, name: named, ...times } = view(stored);
      return { id, name: named, key, ...times };
    },

    /** The user's keys, newest first, without their secrets. */
    async list(user: User): Promise<{ items: ApiKeyView[] }> {
      return { items: (await store.list(user.id, Date.now())).map(view) };
    },

    /**
     * Deletes one of the user's keys; it stops working at once.
     * @throws NotFoundError when the user has no key with this id (unknown or someone else's: the
     * same answer; a malformed id is answered so by the route).
     */
    async remove(user: User, id: string): Promise<void> {
      if (!(await store.remove(user.id, id))) throw unknownApiKey();
      logger.info('api key deleted', { api_key_id: id });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

/** Checks an API key a request brings: its holder, or undefined for no such key. */
export type ApiKeyVerifier = (key: string) => Promise<KeyHolder | undefined>;

/**
 * Looks keys up by their hash (a well-formed key only: anything else is not looked up), refuses
 * an expired one as if it did not exist, and records their use at most once per
 * LAST_USED_RESOLUTION_MS. A failure to record a use is logged and never fails the request.
 * The verifier throws ServiceUnavailableError when the lookup itself fails.
 */
export function createApiKeyVerifier(store: ApiKeyStore, logger: Logger): ApiKeyVerifier {
  return async (key) => {
    if (!isWellFormedApiKey(key)) return undefined;
    // The lookup is by hash, so no comparison of secrets happens here: what an attacker could
    // time is a read of an item named by the SHA-256 of their guess, which says nothing about
    // any real key's hash, let alone the key.
    const hash = hashApiKey(key);
    const holder = await store.findByHash(hash);
    if (!holder) return undefined;
    const now = Date.now();
    // Checked here, on every request: the table's TTL removes the item only weeks later.
    if (holder.keyExpiresAt !== undefined && holder.keyExpiresAt <= now) {
      logger.info('api key expired', { api_key_id: holder.keyId });
      return undefined;
    }
    const since = now - LAST_USED_RESOLUTION_MS;
    if (holder.lastUsedAt === undefined || holder.lastUsedAt < since) {
      try {
        await store.recordUse(hash, now, since);
      } catch (error) {
        logger.warn('api key use not recorded', { api_key_id: holder.keyId, error });
      }
    }
    return holder;
  };
}
