// docs/SECURITY.md, "API keys": POST /api-keys, GET /api-keys, DELETE /api-keys/{id}, and keys
// used as bearer credentials, over HTTP through the real local host against DynamoDB Local.
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS_PER_USER } from '../../../lib/api-keys/limits';
import { comparableProblem, startTestHost, type TestHost } from '../../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const createKey = (token: string, name: unknown = 'laptop') =>
  host.request('POST', '/api-keys', { json: { name }, token });
const listKeys = (token: string) => host.request('GET', '/api-keys', { token });
const deleteKey = (token: string, id: string) =>
  host.request('DELETE', `/api-keys/${id}`, { token });
/** A request a key (or token) must be let through to answer 200. */
const history = (credential: string) => host.request('GET', '/summaries', { token: credential });

const userIdOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub;

async function allItems() {
  const { Items = [] } = await host.db.send(
    new ScanCommand({ TableName: host.config.TABLE_NAME, ConsistentRead: true }),
  );
  return Items;
}

describe('an API key', () => {
  it('is created, listed without its secret, used, deleted, and refused with 401 at once', async () => {
    const { token } = await host.registerAndLogin();

    const created = await createKey(token, 'ci runner');
    const { key, id } = created.body;
    const listed = await listKeys(token);
    const used = await history(key);
    const deleted = await deleteKey(token, id);
    const afterDelete = await history(key);
    const badToken = await history('not-a-token');

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      name: 'ci runner',
      key: expect.stringMatching(/^tsk_[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      items: [{ id, name: 'ci runner', created_at: created.body.created_at, last_used_at: null }],
    });
    expect(listed.text).not.toContain(key);
    expect(used.status).toBe(200);
    expect(deleted.status).toBe(204);
    expect(afterDelete.status).toBe(401);
    expect(comparableProblem(afterDelete)).toEqual(comparableProblem(badToken));
    expect((await listKeys(token)).body).toEqual({ items: [] });
  });

  it('works on POST /summarize as an access token does', async () => {
    const { token } = await host.registerAndLogin();
    const { key } = (await createKey(token)).body;

    // An invalid video: authenticated, then refused for the body (no YouTube call).
    const withKey = await host.request('POST', '/summarize', {
      json: { video_url: 'not a video' },
      token: key,
    });
    const withToken = await host.request('POST', '/summarize', {
      json: { video_url: 'not a video' },
      token,
    });

    expect(withKey.status).toBe(422);
    expect(withKey.body.errors).toEqual(withToken.body.errors);
  });

  it('acts as its owner: the owner’s jobs, nobody else’s', async () => {
    const owner = await host.registerAndLogin();
    const { key } = (await createKey(owner.token)).body;

    const withKey = await history(key);
    const withToken = await history(owner.token);

    expect(withKey.body).toEqual(withToken.body);
  });

  it('is stored only as its SHA-256: the key is in no item of the table', async () => {
    const { token } = await host.registerAndLogin();
    const { key, id } = (await createKey(token)).body;

    const items = JSON.stringify(await allItems());
    const hash = createHash('sha256').update(key).digest('base64url');

    expect(items).not.toContain(key);
    expect(items).not.toContain(key.slice('tsk_'.length));
    expect(items).toContain(hash);
    const lookup = await host.db.send(
      new GetCommand({ TableName: host.config.TABLE_NAME, Key: { pk: `APIKEY#${hash}` } }),
    );
    expect(lookup.Item).toMatchObject({ userId: userIdOf(token), keyId: id });
  });

  it('records its last use, at most once a minute', async () => {
    const { token } = await host.registerAndLogin();
    const { key } = (await createKey(token)).body;
    const before = Date.now();

    await history(key);
    const first = (await listKeys(token)).body.items[0].last_used_at;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await history(key);
    const second = (await listKeys(token)).body.items[0].last_used_at;

    expect(Date.parse(first)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now());
    expect(second).toBe(first);
  });

  it('is refused with the same 401 as a bad token when unknown, malformed or its user is gone', async () => {
    const { token } = await host.registerAndLogin();
    const { key } = (await createKey(token)).body;
    const reference = comparableProblem(await history('not-a-token'));
    const unknown = `tsk_${'A'.repeat(43)}`;
    const cases = {
      unknown,
      'one character off': key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'),
      'too short': key.slice(0, -1),
      'too long': `${key}A`,
      'prefix only': 'tsk_',
      'upper-case prefix': `TSK_${key.slice(4)}`,
    };

    for (const [name, credential] of Object.entries(cases)) {
      expect(comparableProblem(await history(credential)), name).toEqual(reference);
    }
    await host.db.send(
      new DeleteCommand({
        TableName: host.config.TABLE_NAME,
        Key: { pk: `USER#${userIdOf(token)}` },
      }),
    );
    expect(comparableProblem(await history(key)), 'user deleted').toEqual(reference);
    expect(reference.status).toBe(401);
    expect(reference.challenge).toContain('error="invalid_token"');
  });
});

describe('managing API keys', () => {
  it('needs a login token: a key gets 403 login-token-required on every /api-keys route', async () => {
    const { token } = await host.registerAndLogin();
    const { key, id } = (await createKey(token)).body;

    const answers = [
      await createKey(key, 'minted by a key'),
      await listKeys(key),
      await deleteKey(key, id),
    ];

    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({
        type: 'urn:tubesum:problem:login-token-required',
        detail: expect.stringContaining('POST /token'),
      });
    }
    // Nothing was made or deleted, and the key still works.
    expect((await listKeys(token)).body.items.map((item: { id: string }) => item.id)).toEqual([id]);
    expect((await history(key)).status).toBe(200);
  });

  it(`allows ${API_KEYS_PER_USER} keys per user, then answers 409 too-many-api-keys until one is deleted`, async () => {
    const { token } = await host.registerAndLogin();
    const ids: string[] = [];
    for (let i = 0; i < API_KEYS_PER_USER; i++) {
      const created = await createKey(token, `key ${i}`);
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }

    const refused = await createKey(token, 'one too many');
    await deleteKey(token, ids[0] ?? '');
    const again = await createKey(token, 'room again');

    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      type: 'urn:tubesum:problem:too-many-api-keys',
      detail: expect.stringContaining(String(API_KEYS_PER_USER)),
    });
    expect(again.status).toBe(201);
    expect((await listKeys(token)).body.items).toHaveLength(API_KEYS_PER_USER);
  });

  it('keeps the bound under parallel requests: exactly the allowed number of keys are made', async () => {
    const { token } = await host.registerAndLogin();

    const answers = await Promise.all(
      Array.from({ length: API_KEYS_PER_USER + 5 }, (_, i) => createKey(token, `parallel ${i}`)),
    );

    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(API_KEYS_PER_USER);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    expect((await listKeys(token)).body.items).toHaveLength(API_KEYS_PER_USER);
    // No lookup item without its entry in the user's list, nor the reverse; each key works.
    const userId = userIdOf(token);
    const items = await allItems();
    const lookups = items.filter(
      (item) => String(item.pk).startsWith('APIKEY#') && item.userId === userId,
    );
    const list = items.find((item) => item.pk === `APIKEYS#${userId}`);
    expect(lookups.map((item) => item.keyId).sort()).toEqual(Object.keys(list?.keys).sort());
    const keys = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.key);
    for (const key of keys) expect((await history(key)).status).toBe(200);
  });

  it('lists only the caller’s keys, newest first', async () => {
    const alice = await host.registerAndLogin();
    const bob = await host.registerAndLogin();
    const first = (await createKey(alice.token, 'first')).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = (await createKey(alice.token, 'second')).body;
    await createKey(bob.token, 'bob’s');

    const listed = await listKeys(alice.token);

    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([second.id, first.id]);
  });

  it('answers another user’s key id with the same 404 as an unknown or malformed one, and leaves it alone', async () => {
    const alice = await host.registerAndLogin();
    const bob = await host.registerAndLogin();
    const bobs = (await createKey(bob.token)).body;

    const other = await deleteKey(alice.token, bobs.id);
    const unknown = await deleteKey(alice.token, 'A'.repeat(22));
    const malformed = await deleteKey(alice.token, '..%2F..%2Fetc');
    const twice = await deleteKey(bob.token, bobs.id).then(() => deleteKey(bob.token, bobs.id));

    expect(other.status).toBe(404);
    expect(comparableProblem(other)).toEqual(comparableProblem(unknown));
    expect(comparableProblem(malformed)).toEqual(comparableProblem(unknown));
    expect(comparableProblem(twice)).toEqual(comparableProblem(unknown));
    expect(other.body.type).toBe('urn:tubesum:problem:not-found');
  });

  it('does not let another user’s delete stop the key working', async () => {
    const alice = await host.registerAndLogin();
    const bob = await host.registerAndLogin();
    const bobs = (await createKey(bob.token)).body;

    await deleteKey(alice.token, bobs.id);

    expect((await history(bobs.key)).status).toBe(200);
    expect((await listKeys(bob.token)).body.items).toHaveLength(1);
  });

  it.each([
    ['an empty name', ''],
    ['a name of spaces', '   '],
    [`a name over 64 characters`, 'k'.repeat(65)],
    ['a name with a line break', 'line\nbreak'],
    ['a number', 42],
    ['null', null],
  ])('refuses %s with 422 naming the field', async (_case, name) => {
    const { token } = await host.registerAndLogin();

    const response = await createKey(token, name);

    expect(response.status).toBe(422);
    expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(['name']);
  });

  it('trims the name, and takes 64 characters', async () => {
    const { token } = await host.registerAndLogin();

    const trimmed = await createKey(token, '  laptop  ');
    const longest = await createKey(token, `${'é'.repeat(63)}k`);
    const missing = await host.request('POST', '/api-keys', { json: {}, token });

    expect(trimmed.body.name).toBe('laptop');
    expect(longest.status).toBe(201);
    expect(missing.status).toBe(422);
  });
});
