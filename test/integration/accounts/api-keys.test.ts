// docs/SECURITY.md, "API keys": POST /api-keys, GET /api-keys, DELETE /api-keys/{id}, and keys
// used as bearer credentials, over HTTP through the real local host against DynamoDB Local.
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_EXPIRED_RETENTION_DAYS,
  API_KEYS_PER_USER,
  DAY_MS,
} from '../../../lib/accounts/api-keys/limits';
import { generateApiKey, hashApiKey } from '../../../lib/accounts/api-keys/secret';
import { createApiKeyStore } from '../../../lib/accounts/api-keys/store';
import { TABLE_TTL_ATTRIBUTE } from '../../../lib/aws/table';
import { randomId } from '../../../lib/util/random-id';
import { expireApiKey, userIdOf } from '../../support/api-keys';
import { comparableProblem, startTestHost, type TestHost } from '../../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const createKey = (token: string, name: unknown = 'laptop', more: Record<string, unknown> = {}) =>
  host.request('POST', '/api-keys', { json: { name, ...more }, token });
const listKeys = (token: string) => host.request('GET', '/api-keys', { token });
const deleteKey = (token: string, id: string) =>
  host.request('DELETE', `/api-keys/${id}`, { token });
/** A request a key (or token) must be let through to answer 200. */
const history = (credential: string) => host.request('GET', '/summaries', { token: credential });

/** POST /mcp as an MCP client starts (a request a key must be let through to answer 200). */
const mcp = (credential: string) =>
  host.request('POST', '/mcp', {
    token: credential,
    headers: { accept: 'application/json, text/event-stream' },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });

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
      last_used_at: null,
      expires_at: null,
    });
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(listed.status).toBe(200);
    // The created key is the listed one, plus the key.
    const { key: _secret, ...asListed } = created.body;
    expect(listed.body).toEqual({ items: [asListed] });
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

describe('an API key with an expiry', () => {
  it('expires expires_in_days days after it is made: created and listed with its expires_at', async () => {
    const { token } = await host.registerAndLogin();

    const created = await createKey(token, 'ci runner', { expires_in_days: 30 });
    const listed = await listKeys(token);

    expect(created.status).toBe(201);
    const { key, id, created_at: createdAt, expires_at: expiresAt } = created.body;
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(30 * DAY_MS);
    expect(listed.body.items).toEqual([
      { id, name: 'ci runner', created_at: createdAt, last_used_at: null, expires_at: expiresAt },
    ]);
    expect((await history(key)).status).toBe(200);
    // What the verifier checks on every request, and when the table's TTL may remove the item.
    const lookup = await host.db.send(
      new GetCommand({
        TableName: host.config.TABLE_NAME,
        Key: { pk: `APIKEY#${hashApiKey(key)}` },
      }),
    );
    expect(lookup.Item).toMatchObject({
      keyExpiresAt: Date.parse(expiresAt),
      [TABLE_TTL_ATTRIBUTE]: Math.ceil(
        (Date.parse(expiresAt) + API_KEY_EXPIRED_RETENTION_DAYS * DAY_MS) / 1000,
      ),
    });
  });

  it('never expires without expires_in_days, and keeps working', async () => {
    const { token } = await host.registerAndLogin();
    const { key, id } = (await createKey(token)).body;

    const lookup = await host.db.send(
      new GetCommand({
        TableName: host.config.TABLE_NAME,
        Key: { pk: `APIKEY#${hashApiKey(key)}` },
      }),
    );

    expect((await listKeys(token)).body.items[0]).toMatchObject({ id, expires_at: null });
    expect(lookup.Item).not.toHaveProperty('keyExpiresAt');
    expect(lookup.Item).not.toHaveProperty(TABLE_TTL_ATTRIBUTE);
    expect((await history(key)).status).toBe(200);
    expect((await mcp(key)).status).toBe(200);
  });

  it('is refused once expired with the same 401 as an unknown key, on GET /summaries and POST /mcp, and stays listed', async () => {
    const { token } = await host.registerAndLogin();
    const made = (await createKey(token, 'old laptop', { expires_in_days: 1 })).body;
    const before = [await history(made.key), await mcp(made.key)];
    const unknown = generateApiKey();
    // A day later: the key's expiry, as the store keeps it, moved to a second ago.
    const expiredAt = Date.now() - 1_000;
    await expireApiKey(
      host.db,
      host.config.TABLE_NAME,
      { userId: userIdOf(token), ...made },
      expiredAt,
    );

    const summaries = await history(made.key);
    const viaMcp = await mcp(made.key);
    const listed = await listKeys(token);

    expect(before.map((answer) => answer.status)).toEqual([200, 200]);
    expect(summaries.status).toBe(401);
    expect(comparableProblem(summaries)).toEqual(comparableProblem(await history(unknown)));
    expect(viaMcp.status).toBe(401);
    expect(comparableProblem(viaMcp)).toEqual(comparableProblem(await mcp(unknown)));
    expect(viaMcp.headers.get('www-authenticate')).toContain('Bearer realm="tubesum"');
    // Listed, its expires_at in the past, until deleted; its use before expiry is still shown.
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        id: made.id,
        expires_at: new Date(expiredAt).toISOString(),
        last_used_at: expect.any(String),
      }),
    ]);
    expect((await deleteKey(token, made.id)).status).toBe(204);
    expect((await listKeys(token)).body.items).toEqual([]);
  });

  it.each([
    ['0', 0],
    ['366', 366],
    ['1.5', 1.5],
    ['a string', '30'],
    ['null', null],
    ['-1', -1],
  ])('refuses expires_in_days %s with 422 naming the field and the range', async (_case, days) => {
    const { token } = await host.registerAndLogin();

    const response = await createKey(token, 'laptop', { expires_in_days: days });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      {
        field: 'expires_in_days',
        message:
          'Use a whole number of days from 1 to 365, or leave it out for a key that never expires.',
      },
    ]);
    expect((await listKeys(token)).body.items).toEqual([]);
  });

  it('takes 1 and 365 days', async () => {
    const { token } = await host.registerAndLogin();

    const answers = [
      await createKey(token, 'a day', { expires_in_days: 1 }),
      await createKey(token, 'a year', { expires_in_days: 365 }),
    ];

    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(
      answers.map(
        ({ body }) => (Date.parse(body.expires_at) - Date.parse(body.created_at)) / DAY_MS,
      ),
    ).toEqual([1, 365]);
  });

  it(`counts toward the ${API_KEYS_PER_USER} until deleted, or removed ${API_KEY_EXPIRED_RETENTION_DAYS} days after it expired`, async () => {
    const { token } = await host.registerAndLogin();
    const userId = userIdOf(token);
    const now = Date.now();
    // Made in the past through the store: one expired yesterday, one long enough ago to be gone.
    const store = createApiKeyStore(host.db, host.config.TABLE_NAME);
    const past = (name: string, expiredDaysAgo: number) => {
      const key = generateApiKey();
      const id = randomId();
      const keyExpiresAt = now - expiredDaysAgo * DAY_MS;
      return store
        .add(userId, {
          id,
          name,
          hash: hashApiKey(key),
          createdAt: keyExpiresAt - DAY_MS,
          keyExpiresAt,
        })
        .then(() => ({ id, key }));
    };
    const recent = await past('expired yesterday', 1);
    const gone = await past('long expired', API_KEY_EXPIRED_RETENTION_DAYS + 1);
    for (let i = 2; i < API_KEYS_PER_USER; i++) {
      expect((await createKey(token, `key ${i}`)).status).toBe(201);
    }

    const listed = await listKeys(token);
    const made = await createKey(token, 'in the room the long expired one left');
    const refused = await createKey(token, 'one too many');

    const names = listed.body.items.map((item: { name: string }) => item.name);
    expect(names).toHaveLength(API_KEYS_PER_USER - 1);
    expect(names).toContain('expired yesterday');
    expect(names).not.toContain('long expired');
    expect(made.status).toBe(201);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/Expired keys count until you delete them/);
    // The long expired key is out of the table (entry and lookup item); the other is not.
    const items = await allItems();
    const list = items.find((item) => item.pk === `APIKEYS#${userId}`);
    expect(Object.keys(list?.keys)).not.toContain(gone.id);
    expect(Object.keys(list?.keys)).toContain(recent.id);
    const lookups = items.map((item) => item.pk);
    expect(lookups).not.toContain(`APIKEY#${hashApiKey(gone.key)}`);
    expect(lookups).toContain(`APIKEY#${hashApiKey(recent.key)}`);
    expect((await history(recent.key)).status).toBe(401);
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

  it.each([
    ['a line separator (U+2028)', 'work\u2028laptop', 'U+2028'],
    ['a paragraph separator (U+2029)', 'work\u2029laptop', 'U+2029'],
    ['a right-to-left override (U+202E)', 'key\u202Egnp.exe', 'U+202E'],
    ['a left-to-right embedding (U+202A)', '\u202Alaptop', 'U+202A'],
    ['a right-to-left isolate (U+2067)', 'lap\u2067top\u2069', 'U+2067'],
    ['a right-to-left mark (U+200F)', 'laptop\u200F', 'U+200F'],
    ['an Arabic letter mark (U+061C)', 'lap\u061Ctop', 'U+061C'],
    ['a zero-width space (U+200B)', 'lap\u200Btop', 'U+200B'],
    ['a zero-width joiner between letters (U+200D)', 'lap\u200Dtop', 'U+200D'],
    ['a word joiner (U+2060)', 'lap\u2060top', 'U+2060'],
    ['a byte order mark (U+FEFF)', 'lap\uFEFFtop', 'U+FEFF'],
    ['a Hangul filler (U+3164)', 'lap\u3164top', 'U+3164'],
    ['a tab', 'lap\ttop', 'U+0009'],
  ])('refuses a name with %s with 422 naming the character', async (_case, name, found) => {
    const { token } = await host.registerAndLogin();

    const response = await createKey(token, name);
    const listed = await listKeys(token);

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      {
        field: 'name',
        message: `Remove the line breaks, control, bidirectional or invisible characters (it has ${found}).`,
      },
    ]);
    expect(listed.body.items).toEqual([]);
  });

  it.each([
    ['zero-width spaces', '\u200B\u200B'],
    ['Hangul fillers and blank Braille', '\u3164 \u2800'],
    ['soft hyphens and word joiners', '\u00AD\u2060'],
  ])('refuses a name of %s as empty', async (_case, name) => {
    const { token } = await host.registerAndLogin();

    const response = await createKey(token, name);

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ field: 'name', message: 'Fill in this field.' }]);
  });

  it('takes a name in any script, with spaces between words and emoji', async () => {
    const { token } = await host.registerAndLogin();
    const names = ['ci runner 2', 'مفتاح العمل', '作業\u3000キー', '👩‍💻 work', '❤️ home', '🇫🇷 été'];

    const created = await Promise.all(names.map((name) => createKey(token, name)));

    expect(created.map((response) => response.status)).toEqual(names.map(() => 201));
    expect(created.map((response) => response.body.name)).toEqual(names);
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
