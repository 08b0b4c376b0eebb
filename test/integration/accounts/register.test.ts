// SECURITY.md, "Registration: POST /register", over HTTP against DynamoDB Local.
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSchema } from '../../../lib/accounts/users/identity';
import { bcryptBudget } from '../../support/budget';
import { newUser, startTestHost, type TestHost } from '../../support/host';

// 50 registrations hash 50 passwords on the host's one thread: the time that takes here, now.
const RACE_TIMEOUT = await bcryptBudget(50);

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

async function storedUser(username: string) {
  const { db, config } = host;
  const claim = await db.send(
    new GetCommand({
      TableName: config.TABLE_NAME,
      Key: { pk: `USERNAME#${username.toLowerCase()}` },
    }),
  );
  const user = await db.send(
    new GetCommand({ TableName: config.TABLE_NAME, Key: { pk: `USER#${claim.Item?.userId}` } }),
  );
  return user.Item;
}

async function allItems() {
  const { db, config } = host;
  const { Items = [] } = await db.send(
    new ScanCommand({ TableName: config.TABLE_NAME, ConsistentRead: true }),
  );
  return Items;
}

describe('POST /register', () => {
  it('answers 201 with a message and nothing secret', async () => {
    const user = newUser();

    const response = await host.request('POST', '/register', { json: user });

    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['message', 'username']);
    expect(response.body.message).toContain(user.username);
    expect(response.text).not.toContain(user.password);
  });

  it('stores the password only as a bcrypt hash of the configured cost', async () => {
    const user = newUser();
    await host.request('POST', '/register', { json: user });

    const item = await storedUser(user.username);

    expect(item?.passwordHash).toMatch(/^\$2[aby]\$10\$/);
    expect(JSON.stringify(item)).not.toContain(user.password);
    expect(item).toMatchObject({ username: user.username, email: user.email });
    expect(Date.parse(item?.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a password over 72 UTF-8 bytes, counting bytes not characters', async () => {
    const emoji = '😀'.repeat(19); // 19 characters, 76 bytes

    const response = await host.request('POST', '/register', {
      json: newUser({ password: emoji }),
    });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'password' })]);
    expect(response.body.detail).toMatch(/72 bytes/);
    expect(response.body.detail).toMatch(/never truncated/);
  });

  it('accepts exactly 72 bytes and refuses a login with those 72 bytes plus more', async () => {
    const password = 'Zq7-'.repeat(18); // 72 bytes
    const user = newUser({ password });
    expect((await host.request('POST', '/register', { json: user })).status).toBe(201);

    const extra = await host.request('POST', '/token', {
      json: { username: user.username, password: `${password}EXTRA` },
    });
    const exact = await host.request('POST', '/token', {
      json: { username: user.username, password },
    });

    expect(extra.status).toBe(401);
    expect(exact.status).toBe(200);
  });

  it.each([
    ['too short', 'Ab1!xyz'],
    ['among the most common passwords', 'qwertyuiop'],
    ['a common password in other case', 'PassWord1'],
  ])('refuses a password that is %s', async (_case, password) => {
    const response = await host.request('POST', '/register', { json: newUser({ password }) });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].field).toBe('password');
  });

  it('treats usernames case-insensitively and NFKC-normalised', async () => {
    const base = `al${Date.now().toString(36)}`;
    const fullwidth = [...base].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    expect(
      (await host.request('POST', '/register', { json: newUser({ username: base }) })).status,
    ).toBe(201);

    const upper = await host.request('POST', '/register', {
      json: newUser({ username: base.toUpperCase() }),
    });
    const wide = await host.request('POST', '/register', {
      json: newUser({ username: fullwidth }),
    });

    expect(upper.status).toBe(409);
    expect(wide.status).toBe(409);
    expect(upper.body.type).toBe('urn:tubesum:problem:conflict');
  });

  it.each([
    ['a Cyrillic look-alike', '\u0430lice_cyr'],
    ['a zero-width space', 'ali\u200bce_zw'],
    ['a control character', 'ali\u0007ce_ctl'],
    ['an @', 'ali@ce'],
    ['too few characters', 'ab'],
  ])('refuses a username with %s', async (_case, username) => {
    const response = await host.request('POST', '/register', { json: newUser({ username }) });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'username' })]);
  });

  it.each([
    ['username', '\uFDFA'.repeat(256)],
    ['email', `${'\uFDFA'.repeat(240)}@x.io`],
  ])('refuses with 422 a %s that NFKC grows past the limit', async (field, value) => {
    const response = await host.request('POST', '/register', { json: newUser({ [field]: value }) });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ field })]);
  });

  it('refuses an email already used in another case', async () => {
    const first = newUser();
    await host.request('POST', '/register', { json: first });

    const response = await host.request('POST', '/register', {
      json: newUser({ email: first.email.toUpperCase() }),
    });

    expect(response.status).toBe(409);
    expect(response.body.detail).toMatch(/email/);
  });

  it('ignores extra fields and never stores them', async () => {
    const user = newUser();
    const body = `{"username":"${user.username}","email":"${user.email}","password":"${user.password}","role":"admin","password_hash":"$2b$04$x","__proto__":{"admin":true}}`;

    const response = await host.request('POST', '/register', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    const item = await storedUser(user.username);

    expect(response.status).toBe(201);
    expect(item).not.toHaveProperty('role');
    expect(item?.passwordHash).not.toBe('$2b$04$x');
    expect(Object.keys(item ?? {})).not.toContain('admin');
  });

  it.each(['username', 'email'] as const)(
    'gives exactly one success to 50 parallel registrations of one %s, and leaves no orphans',
    async (field) => {
      const shared = newUser();
      const attempts = Array.from({ length: 50 }, () => newUser({ [field]: shared[field] }));

      const responses = await Promise.all(
        attempts.map((user) => host.request('POST', '/register', { json: user })),
      );
      const statuses = responses.map((response) => response.status);
      const items = await allItems();
      const mine = (pk: string) =>
        attempts.some((user) =>
          pk.endsWith(`#${user[field === 'username' ? 'email' : 'username'].toLowerCase()}`),
        );

      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(49);
      // The losers' other claim (email for a username race, and vice versa) must not remain.
      expect(items.filter((item) => mine(item.pk))).toHaveLength(1);
      // Every claim points at a user record, and every user record has both claims.
      const users = new Set(items.filter((i) => i.pk.startsWith('USER#')).map((i) => i.id));
      const claims = items.filter((i) => i.pk.startsWith('USERNAME#') || i.pk.startsWith('EMAIL#'));
      for (const claim of claims) expect(users.has(claim.userId)).toBe(true);
      expect(claims).toHaveLength(users.size * 2);
    },
    RACE_TIMEOUT,
  );
});

describe('the email rule of POST /register', () => {
  /** A seeded generator (mulberry32): the same candidates on every run. */
  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
  }

  /** Addresses near the edges of the rules: odd characters, dots and hyphens, long labels. */
  function candidates(count: number, seed: number): string[] {
    const next = random(seed);
    const pick = (chars: string) => chars[Math.floor(next() * chars.length)] ?? '';
    // Mostly characters the rules allow, now and then one they may not.
    const run = (chars: string, odd: string, max: number) =>
      Array.from({ length: 1 + Math.floor(next() * max) }, () =>
        pick(next() < 0.9 ? chars : odd),
      ).join('');
    const label = () =>
      next() < 0.1 ? 'a'.repeat(62 + Math.floor(next() * 3)) : run('abcXYZ0189-', '_.', 6);
    const local = () => run("abZ09._'+-", '!#~ "(),;<>\\é@', 8);
    const domain = () => {
      const labels = Array.from({ length: 1 + Math.floor(next() * 3) }, label);
      if (next() < 0.9) labels.push(run('comORGio', '0-', 4));
      return labels.join(next() < 0.95 ? '.' : pick('.-'));
    };
    return Array.from({ length: count }, () => {
      const address = `${local()}@${domain()}`;
      if (next() < 0.03) return ` ${address}`;
      if (next() < 0.03) return `${address} `;
      // Around the 254-character limit.
      if (next() < 0.03) {
        return `${'x'.repeat(Math.max(0, 253 - address.length + Math.floor(next() * 3)))}${address}`;
      }
      return address;
    });
  }

  /** What the served OpenAPI document says of an email, as ajv (with ajv-formats) reads it. */
  async function documentedRule() {
    const document = (await host.request('GET', '/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    addFormats.default(ajv);
    const schema = document.components.schemas.RegisterRequest.properties.email;
    return { accepts: ajv.compile(schema), formatAccepts: ajv.compile({ format: 'email' }) };
  }

  it('agrees with the OpenAPI document on 5,000 generated addresses', async () => {
    const { accepts, formatAccepts } = await documentedRule();
    const addresses = [...candidates(5_000, 7), 'a@b-.com', 'a@-b.com', 'a.@b.co', ' a@b.co'];

    const disagreements = addresses.filter(
      (address) => emailSchema.safeParse(address).success !== accepts(address),
    );
    const beyondFormat = addresses.filter(
      (address) => emailSchema.safeParse(address).success && !formatAccepts(address),
    );

    expect(disagreements).toEqual([]);
    // What the server accepts, `format: email` accepts too (the pattern only narrows it).
    expect(beyondFormat).toEqual([]);
    // Both sides of the rule are well represented.
    expect(addresses.filter((address) => accepts(address)).length).toBeGreaterThan(400);
    expect(addresses.filter((address) => !accepts(address)).length).toBeGreaterThan(400);
  });

  it('refuses over HTTP every generated address the document refuses', async () => {
    const { accepts } = await documentedRule();
    const refused = ['a@b-.com', ...candidates(600, 11).filter((address) => !accepts(address))];

    const answers = [];
    for (const email of refused.slice(0, 150)) {
      const response = await host.request('POST', '/register', { json: newUser({ email }) });
      answers.push({ email, status: response.status, field: response.body.errors?.[0]?.field });
    }

    expect(answers.filter((answer) => answer.status !== 422 || answer.field !== 'email')).toEqual(
      [],
    );
    expect(answers.length).toBe(150);
  });

  it('accepts over HTTP addresses the document accepts', async () => {
    const { accepts } = await documentedRule();
    const id = Date.now().toString(36);
    const valid = [
      `plus+tag.${id}@sub.example.co.uk`,
      `o'brien.${id}@example.ie`,
      `a_b-c.${id}@x-y.example.org`,
      `${id}@${'a'.repeat(63)}.example`,
      `UPPER.${id}@EXAMPLE.COM`,
      `${'l'.repeat(254 - id.length - 12)}${id}@example.com`,
    ];
    expect(valid.filter((email) => !accepts(email))).toEqual([]);

    const statuses = [];
    for (const email of valid) {
      statuses.push((await host.request('POST', '/register', { json: newUser({ email }) })).status);
    }

    expect(statuses).toEqual(valid.map(() => 201));
  });
});
