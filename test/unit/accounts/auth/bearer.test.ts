// The bearer authenticator's choice between an access token and an API key, with fakes: which
// path a credential takes, and what each path asks of the stores.
import { describe, expect, it, vi } from 'vitest';
import type { KeyHolder } from '../../../../lib/accounts/api-keys/key-lookup';
import { createBearerAuthenticator } from '../../../../lib/accounts/auth/bearer';
import { issueToken } from '../../../../lib/accounts/auth/tokens';
import type { User } from '../../../../lib/accounts/users/store';
import { UnauthorizedError } from '../../../../lib/errors';
import { settingsFor } from '../../../support/tokens';

const settings = settingsFor('unit-test-secret-0123456789-abcdefghijklmnop');
const alice: User = {
  id: 'user-1',
  username: 'alice',
  email: 'alice@example.com',
  passwordHash: '$2b$10$x',
  createdAt: '2025-01-01T00:00:00.000Z',
};
const KEY = `tsk_${'A'.repeat(43)}`;

function authenticator(holder: KeyHolder | undefined, users: User[] = [alice]) {
  const deps = {
    tokenSettings: vi.fn(async () => settings),
    findUser: vi.fn(async (id: string) => users.find((user) => user.id === id)),
    verifyApiKey: vi.fn(async () => holder),
  };
  return { authenticate: createBearerAuthenticator(deps), deps };
}

describe('createBearerAuthenticator', () => {
  it('authenticates an API key by its holder, naming the key, without verifying a JWT', async () => {
    const { authenticate, deps } = authenticator({ userId: 'user-1', keyId: 'key-1' });

    const principal = await authenticate(`Bearer ${KEY}`);

    expect(principal).toEqual({ user: alice, apiKeyId: 'key-1' });
    expect(deps.verifyApiKey).toHaveBeenCalledWith(KEY);
    expect(deps.tokenSettings).not.toHaveBeenCalled();
  });

  it('authenticates an access token without asking the key store', async () => {
    const { authenticate, deps } = authenticator(undefined);
    const { token } = await issueToken(settings, 'user-1');

    const principal = await authenticate(`Bearer ${token}`);

    expect(principal).toEqual({ user: alice });
    expect(deps.verifyApiKey).not.toHaveBeenCalled();
  });

  it('refuses an unknown key, and the key of a user who is gone, with the invalid-token 401', async () => {
    const unknown = authenticator(undefined).authenticate(`Bearer ${KEY}`);
    const orphan = authenticator({ userId: 'user-1', keyId: 'key-1' }, []).authenticate(
      `Bearer ${KEY}`,
    );

    for (const refusal of [unknown, orphan]) {
      await expect(refusal).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(refusal).rejects.toMatchObject({ type: 'invalid-token' });
    }
  });

  it('never tries a key-looking credential as a JWT, nor a JWT as a key', async () => {
    const { authenticate, deps } = authenticator(undefined);

    await expect(authenticate('Bearer tsk_short')).rejects.toMatchObject({ status: 401 });
    await expect(authenticate('Bearer eyJub3QiOiJhIGtleSJ9')).rejects.toMatchObject({
      status: 401,
    });

    expect(deps.verifyApiKey).toHaveBeenCalledTimes(1);
    expect(deps.verifyApiKey).toHaveBeenCalledWith('tsk_short');
    expect(deps.tokenSettings).toHaveBeenCalledTimes(1);
  });
});
