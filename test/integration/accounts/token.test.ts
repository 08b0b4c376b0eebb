// SECURITY.md, "Login: POST /token", over HTTP against DynamoDB Local.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  comparableProblem,
  newUser,
  startTestHost,
  type TestHost,
  type TestUser,
} from '../../support/host';

// bcryptjs as the handlers use it, its compare counted (and still done).
const bcryptCompare = vi.hoisted(() => vi.fn());
vi.mock('bcryptjs', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: typeof import('bcryptjs') }).default;
  bcryptCompare.mockImplementation((password: string, hash: string) =>
    real.compare(password, hash),
  );
  return { default: { ...real, compare: bcryptCompare } };
});

let host: TestHost;
let alice: TestUser;

beforeAll(async () => {
  host = await startTestHost({ LOGIN_MAX_FAILURES: '5', LOGIN_WINDOW_SECONDS: '600' });
  alice = newUser({
    username: `Alice_${Date.now().toString(36)}`,
    email: `Alice.${Date.now()}@Example.COM`,
  });
  expect((await host.request('POST', '/register', { json: alice })).status).toBe(201);
});
afterAll(() => host?.close());

const login = (body: Record<string, unknown>) => host.request('POST', '/token', { json: body });

describe('POST /token', () => {
  it('answers a bearer token with expires_in and Cache-Control: no-store', async () => {
    const response = await login({ username: alice.username, password: alice.password });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: 'bearer',
      expires_in: 1800,
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const claims = JSON.parse(
      Buffer.from(response.body.access_token.split('.')[1], 'base64url').toString(),
    );
    expect(claims).toMatchObject({ iss: 'tubesum', aud: 'tubesum-api' });
    expect(claims.exp - claims.iat).toBe(1800);
    expect(typeof claims.sub).toBe('string');
  });

  it.each([
    ['the username in another case', () => alice.username.toLowerCase()],
    ['the email in upper case', () => alice.email.toUpperCase()],
    ['the email as registered', () => alice.email],
  ])('logs in with %s', async (_case, identifier) => {
    const response = await login({ username: identifier(), password: alice.password });

    expect(response.status).toBe(200);
  });

  it('accepts the email in an `email` field', async () => {
    const response = await login({ email: alice.email, password: alice.password });

    expect(response.status).toBe(200);
  });

  it('accepts the OAuth2 password grant as a form, as Swagger UI sends it', async () => {
    const response = await host.request('POST', '/token', {
      form: {
        grant_type: 'password',
        username: alice.username,
        password: alice.password,
        scope: '',
      },
    });

    expect(response.status).toBe(200);
    expect(response.body.token_type).toBe('bearer');
  });

  it('answers unknown user, wrong password and wrong email with the same 401', async () => {
    const unknown = await login({ username: 'nobody_here', password: 'whatever-password' });
    const wrongPassword = await login({ username: alice.username, password: 'not-her-password' });
    const wrongEmail = await login({ username: 'nobody@example.com', password: alice.password });

    expect(unknown.status).toBe(401);
    expect(comparableProblem(wrongPassword)).toEqual(comparableProblem(unknown));
    expect(comparableProblem(wrongEmail)).toEqual(comparableProblem(unknown));
    expect(unknown.body.type).toBe('urn:tubesum:problem:invalid-credentials');
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it.each([
    ['a username', (i: number) => `${'\uFDFA'.repeat(255)}${i}`],
    ['an email', (i: number) => `${'\uFDFA'.repeat(250)}${i}@x.io`],
  ])(
    'answers %s that NFKC grows past any stored key with the same 401 as an unknown user',
    async (_case, identifier) => {
      // U+FDFA is one character that NFKC turns into eighteen: 256 of them pass the schema's
      // 256-character cap and become 4,608 characters, over DynamoDB's 2,048-byte key limit.
      expect(identifier(0).normalize('NFKC').length).toBeGreaterThan(4_000);
      const unknown = await login({ username: 'nobody_here_2', password: 'whatever-password' });

      const grown = await login({ username: identifier(0), password: 'whatever-password' });
      const inEmailField = await login({ email: identifier(1), password: 'whatever-password' });

      expect(grown.status).toBe(401);
      expect(comparableProblem(grown)).toEqual(comparableProblem(unknown));
      expect(comparableProblem(inEmailField)).toEqual(comparableProblem(unknown));
    },
  );

  it.each([
    ['a number', 12345678],
    ['an array', ['a', 'b']],
    ['null', null],
    ['an object', { $gt: '' }],
  ])('refuses a password that is %s with 422', async (_case, password) => {
    const response = await login({ username: alice.username, password });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].field).toBe('password');
  });

  it('refuses a 1 MB password with 413 before parsing', async () => {
    const response = await login({ username: alice.username, password: 'x'.repeat(1_048_576) });

    expect(response.status).toBe(413);
    expect(response.body.type).toBe('urn:tubesum:problem:payload-too-large');
  });

  it('locks an account out with 429 and Retry-After after 5 failures, alike for real and unknown accounts', async () => {
    const real = newUser();
    await host.request('POST', '/register', { json: real });
    const attempts = async (username: string) => {
      const responses = [];
      for (let i = 0; i < 6; i++)
        responses.push(await login({ username, password: 'wrong-password-1' }));
      return responses;
    };

    const forReal = await attempts(real.username);
    const forUnknown = await attempts(`ghost_${Date.now().toString(36)}`);
    const correctWhileLocked = await login({ username: real.username, password: real.password });

    expect(forReal.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(forUnknown.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(comparableProblem(forReal[5] as never)).toEqual(
      comparableProblem(forUnknown[5] as never),
    );
    const retryAfter = Number(forReal[5]?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(correctWhileLocked.status).toBe(429);
  });
});

describe('POST /token: the password work behind a refused login', () => {
  // What bounds how long a refused login takes, counted rather than timed (a timed test of it
  // missed its bounds on a loaded machine, and a count says exactly what the time rests on):
  // one bcrypt compare, at a real account's cost, whoever asks. Without the dummy compare an
  // unknown user costs no bcrypt at all (about a tenth of the time); with a dummy hash of
  // another cost, or a malformed one (bcryptjs returns at once), it costs another.
  it('is one bcrypt compare at a real account’s cost for an unknown user, an over-long identifier and a wrong password alike', async () => {
    const known = newUser();
    await host.request('POST', '/register', { json: known });
    const comparedFor = async (username: string) => {
      bcryptCompare.mockClear();
      const response = await login({ username, password: 'wrong-password-2' });
      expect(response.status).toBe(401);
      return bcryptCompare.mock.calls.map(([, hash]) => String(hash));
    };

    const forKnown = await comparedFor(known.username);
    const forUnknown = await comparedFor(`unknown_${Date.now().toString(36)}`);
    // An identifier NFKC grows past any stored key is an unknown user too, with the same work.
    const forGrown = await comparedFor(`${'\uFDFA'.repeat(255)}x`);

    const BCRYPT_HASH = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
    const costOf = (hash: string | undefined) => BCRYPT_HASH.exec(hash ?? '')?.[1];
    for (const compared of [forKnown, forUnknown, forGrown]) {
      expect(compared).toHaveLength(1);
      expect(costOf(compared[0])).toBeDefined();
      expect(costOf(compared[0])).toBe(costOf(forKnown[0]));
    }
    // The unknown paths compare against the dummy hash, not a user's.
    expect(forUnknown[0]).not.toBe(forKnown[0]);
    expect(forGrown[0]).toBe(forUnknown[0]);
  });
});
