// What the key verifier and the key service ask of the store, with a fake one: a use is recorded
// at most once a minute and never fails a request; malformed keys are never looked up (a malformed
// id never reaches the service: test/unit/http/serve.test.ts);
// an expired key is refused as an unknown one.
import { describe, expect, it, vi } from 'vitest';
import type { KeyHolder } from '../../../../lib/accounts/api-keys/key-lookup';
import { DAY_MS } from '../../../../lib/accounts/api-keys/limits';
import { generateApiKey, hashApiKey } from '../../../../lib/accounts/api-keys/secret';
import {
  createApiKeyService,
  createApiKeyVerifier,
  LAST_USED_RESOLUTION_MS,
} from '../../../../lib/accounts/api-keys/service';
import type { ApiKeyStore } from '../../../../lib/accounts/api-keys/store';
import type { User } from '../../../../lib/accounts/users/store';
import type { Logger } from '../../../../lib/logger';

const logger = () => ({
  info: vi.fn<Logger['info']>(),
  warn: vi.fn<Logger['warn']>(),
  error: vi.fn<Logger['error']>(),
});

function fakeStore(holder?: KeyHolder) {
  return {
    add: vi.fn(async () => undefined),
    list: vi.fn(async () => []),
    remove: vi.fn(async () => true),
    findByHash: vi.fn(async () => holder),
    recordUse: vi.fn(async () => undefined),
  };
}
const asStore = (fake: ReturnType<typeof fakeStore>) => fake as unknown as ApiKeyStore;

const user = { id: 'user-1' } as User;

describe('createApiKeyVerifier', () => {
  it('looks a key up by its hash and records its first use', async () => {
    const store = fakeStore({ userId: 'user-1', keyId: 'key-1' });
    const key = generateApiKey();

    const holder = await createApiKeyVerifier(asStore(store), logger())(key);

    expect(holder).toEqual({ userId: 'user-1', keyId: 'key-1' });
    expect(store.findByHash).toHaveBeenCalledWith(hashApiKey(key));
    expect(store.recordUse).toHaveBeenCalledTimes(1);
    const [hash, now, since] = store.recordUse.mock.calls[0] as unknown as [string, number, number];
    expect(hash).toBe(hashApiKey(key));
    expect(now - since).toBe(LAST_USED_RESOLUTION_MS);
  });

  it('writes no use within a minute of the last one, and one after it', async () => {
    const recent = fakeStore({ userId: 'u', keyId: 'k', lastUsedAt: Date.now() - 30_000 });
    const stale = fakeStore({ userId: 'u', keyId: 'k', lastUsedAt: Date.now() - 61_000 });

    await createApiKeyVerifier(asStore(recent), logger())(generateApiKey());
    await createApiKeyVerifier(asStore(stale), logger())(generateApiKey());

    expect(recent.recordUse).not.toHaveBeenCalled();
    expect(stale.recordUse).toHaveBeenCalledTimes(1);
  });

  it('lets the key in when its use cannot be recorded, and logs that without the key', async () => {
    const store = fakeStore({ userId: 'user-1', keyId: 'key-1' });
    store.recordUse.mockRejectedValue(new Error('throttled'));
    const log = logger();
    const key = generateApiKey();

    const holder = await createApiKeyVerifier(asStore(store), log)(key);

    expect(holder?.keyId).toBe('key-1');
    expect(log.warn).toHaveBeenCalledWith('api key use not recorded', expect.anything());
    expect(JSON.stringify(log.warn.mock.calls)).not.toContain(key.slice(4));
  });

  it('refuses a key from its expiry on, as if it did not exist, and records no use', async () => {
    const expired = fakeStore({ userId: 'u', keyId: 'k', keyExpiresAt: Date.now() - 1 });
    const log = logger();

    const holder = await createApiKeyVerifier(asStore(expired), log)(generateApiKey());

    expect(holder).toBeUndefined();
    expect(expired.recordUse).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith('api key expired', { api_key_id: 'k' });
  });

  it('lets a key in until its expiry', async () => {
    const live = fakeStore({ userId: 'u', keyId: 'k', keyExpiresAt: Date.now() + 60_000 });

    const holder = await createApiKeyVerifier(asStore(live), logger())(generateApiKey());

    expect(holder?.keyId).toBe('k');
  });

  it('does not look up a credential that is not a well-formed key', async () => {
    const store = fakeStore({ userId: 'user-1', keyId: 'key-1' });

    const holder = await createApiKeyVerifier(asStore(store), logger())('tsk_short');

    expect(holder).toBeUndefined();
    expect(store.findByHash).not.toHaveBeenCalled();
  });
});

describe('createApiKeyService', () => {
  it('stores only the hash of the key it hands out', async () => {
    const store = fakeStore();

    const created = await createApiKeyService(asStore(store), logger()).create(user, 'laptop');

    expect(store.add).toHaveBeenCalledWith('user-1', {
      id: created.id,
      name: 'laptop',
      hash: hashApiKey(created.key),
      createdAt: Date.parse(created.created_at),
    });
    expect(JSON.stringify(store.add.mock.calls)).not.toContain(created.key.slice(4));
  });

  it('answers the key as it will be listed, plus the key: never used, and never expiring', async () => {
    const created = await createApiKeyService(asStore(fakeStore()), logger()).create(user, 'ci');

    expect(created).toEqual({
      id: expect.any(String),
      name: 'ci',
      key: expect.stringMatching(/^tsk_/),
      created_at: expect.any(String),
      last_used_at: null,
      expires_at: null,
    });
  });

  it('stores and answers an expiry expires_in_days after the key is made', async () => {
    const store = fakeStore();

    const created = await createApiKeyService(asStore(store), logger()).create(user, 'ci', 90);

    const createdAt = Date.parse(created.created_at);
    expect(store.add).toHaveBeenCalledWith(
      'user-1',
      expect.objectContaining({ createdAt, keyExpiresAt: createdAt + 90 * DAY_MS }),
    );
    expect(created.expires_at).toBe(new Date(createdAt + 90 * DAY_MS).toISOString());
  });

  it('lists each key’s expiry, or null for never', async () => {
    const store = fakeStore();
    store.list.mockResolvedValue([
      { id: 'a', name: 'a', createdAt: 0, keyExpiresAt: DAY_MS },
      { id: 'b', name: 'b', createdAt: 0 },
    ] as never);

    const { items } = await createApiKeyService(asStore(store), logger()).list(user);

    expect(items.map((item) => item.expires_at)).toEqual(['1970-01-02T00:00:00.000Z', null]);
  });

  it('answers an id the store does not find for the user with the same 404', async () => {
    const store = fakeStore();
    store.remove.mockResolvedValue(false);

    const refusal = createApiKeyService(asStore(store), logger()).remove(user, 'A'.repeat(22));

    await expect(refusal).rejects.toMatchObject({ status: 404, message: 'No such API key.' });
    expect(store.remove).toHaveBeenCalledWith('user-1', 'A'.repeat(22));
  });
});
