// Dynamic client registration (RFC 7591) as the hosts people use register, over HTTP against the
// real local host (docs/oauth.md "Clients", docs/SECURITY.md "OAuth for /mcp"):
// - claude.ai and Claude Desktop ask for client_secret_post (anthropics/claude-ai-mcp #1043: "rejected
//   by a public-client-only authorization server"), and register twice per attempt from shared
//   addresses (#597, #654): a confidential client gets a secret, shown once, kept as a hash;
// - Cursor registers cursor://, https and localhost callbacks in one request
//   (makeplane/plane-mcp-server #159): all three are kept, and a URI that cannot be used
//   (javascript:, whitespace around it) is left out, the registration refused only when none can;
// - a registration that leaves token_endpoint_auth_method out is a public client;
// - a registration repeated from the same address within the hour costs nothing (RFC 7591 3.2.1
//   leaves the answer to the server): a public one gets the same client, also when the repeats
//   arrive together; OAUTH_REGISTER_MAX_PER_IP counts distinct clients.
// The answer to an app scheme (RFC 8252 7.1) goes back to it as written, and the consent screen
// names its scheme.
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceKey } from '../../../lib/accounts/users/address';
import { secretHash } from '../../../lib/oauth/authorize/secrets';
import { startTestHost, type TestHost } from '../../support/host';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  codeOf,
  exchangeCode,
  pkcePair,
  requestIdOf,
} from '../../support/oauth';

const CLAUDE = 'https://claude.ai/api/mcp/auth_callback';
const CURSOR_APP = 'cursor://anysphere.cursor-mcp/oauth/callback';
const CURSOR = [
  CURSOR_APP,
  'https://www.cursor.com/agents/mcp/oauth/callback',
  'http://localhost:8787/callback',
];
const VS_CODE = [
  'https://insiders.vscode.dev/redirect',
  'https://vscode.dev/redirect',
  'http://127.0.0.1/',
  'http://127.0.0.1:33418/',
];

let host: TestHost;
let person: string;
beforeAll(async () => {
  host = await startTestHost({ OAUTH_REGISTER_MAX_PER_IP: '20' });
  person = (await host.registerAndLogin()).token;
});
afterAll(() => host?.close());

const register = (json: Record<string, unknown>, from: string) =>
  host.request('POST', '/oauth/register', { json, from });

/** Every item of the table whose key starts with `prefix`. */
async function items(prefix: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await host.db.send(
    new ScanCommand({ TableName: host.config.TABLE_NAME, ConsistentRead: true }),
  );
  return Items.filter((item) => String(item.pk).startsWith(prefix));
}

/** A code allowed for a client_secret_post client of claude.ai's redirect URI, exchanged. */
async function exchangeWith(clientId: string, secret: string) {
  const { verifier, challenge } = pkcePair();
  const params = authorizationParams(host, clientId, challenge, { redirect_uri: CLAUDE });
  const id = requestIdOf(await authorizeRequest(host, params));
  const code = codeOf(await answer(host, id, person, 'allow'));
  return exchangeCode(host, clientId, code, verifier, {
    redirect_uri: CLAUDE,
    client_secret: secret,
  });
}

/** How many registrations of the address's budget this hour were taken. */
async function budgetUsed(from: string): Promise<number> {
  const { Item } = await host.db.send(
    new GetCommand({
      TableName: host.config.TABLE_NAME,
      Key: { pk: `OAUTHREGISTER#${sourceKey(from)}` },
      ConsistentRead: true,
    }),
  );
  return Number(Item?.used ?? 0);
}

describe('a confidential client', () => {
  it.each(['client_secret_post', 'client_secret_basic'])(
    'registered with %s gets a secret in the answer only, kept as its hash',
    async (method) => {
      const response = await register(
        {
          client_name: 'Claude',
          redirect_uris: [CLAUDE],
          token_endpoint_auth_method: method,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
        '127.0.0.31',
      );
      const [stored] = (await items(`OAUTHCLIENT#${response.body.client_id}`)) as [
        Record<string, unknown>,
      ];

      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toMatchObject({
        client_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        client_secret: expect.stringMatching(/^tsc_[A-Za-z0-9_-]{43}$/),
        client_secret_expires_at: 0,
        token_endpoint_auth_method: method,
        redirect_uris: [CLAUDE],
      });
      expect(stored.secretHash).toBe(secretHash(response.body.client_secret));
      expect(JSON.stringify(stored)).not.toContain(response.body.client_secret);
      expect(stored.tokenEndpointAuthMethod).toBe(method);
    },
  );

  it('is not what a registration without token_endpoint_auth_method makes: that one is public, and says so', async () => {
    const response = await register(
      { client_name: 'Visual Studio Code', redirect_uris: VS_CODE },
      '127.0.0.32',
    );

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      token_endpoint_auth_method: 'none',
      redirect_uris: VS_CODE,
    });
    expect(response.body).not.toHaveProperty('client_secret');
    expect(response.body).not.toHaveProperty('client_secret_expires_at');
  });
});

describe('redirect URIs', () => {
  it('keeps all three of Cursor’s (an app scheme, https, localhost)', async () => {
    const response = await register({ client_name: 'Cursor', redirect_uris: CURSOR }, '127.0.0.33');

    expect(response.status).toBe(201);
    expect(response.body.redirect_uris).toEqual(CURSOR);
  });

  it('leaves a javascript: URI out when others can be used, and refuses it alone', async () => {
    const beside = await register(
      { client_name: 'Mixed', redirect_uris: ['javascript:alert(1)', CLAUDE] },
      '127.0.0.34',
    );
    const alone = await register({ redirect_uris: ['javascript:alert(1)'] }, '127.0.0.34');

    expect(beside.status).toBe(201);
    expect(beside.body.redirect_uris).toEqual([CLAUDE]);
    expect(alone.status).toBe(400);
    expect(alone.body).toMatchObject({ error: 'invalid_redirect_uri' });
    expect(alone.body.error_description).toContain('javascript:');
  });

  it('refuses whitespace around a URI, never trimming it', async () => {
    const alone = await register({ redirect_uris: [` ${CLAUDE}`] }, '127.0.0.35');
    const trailing = await register({ redirect_uris: [`${CLAUDE}\n`] }, '127.0.0.35');
    const beside = await register(
      { client_name: 'Spaced', redirect_uris: [` ${CLAUDE} `, CURSOR_APP] },
      '127.0.0.35',
    );

    for (const refused of [alone, trailing]) {
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_redirect_uri');
      expect(refused.body.error_description).toContain('whitespace');
    }
    expect(beside.body.redirect_uris).toEqual([CURSOR_APP]);
  });
});

describe('an app scheme at the authorization endpoint', () => {
  it('shows the scheme on the consent screen, sends the code back to it as written, and the code works', async () => {
    const clientId = (
      await register({ client_name: 'Cursor', redirect_uris: CURSOR }, '127.0.0.36')
    ).body.client_id;
    const { verifier, challenge } = pkcePair();
    const params = authorizationParams(host, clientId, challenge, {
      redirect_uri: CURSOR_APP,
      state: 'st ate&1',
    });
    const id = requestIdOf(await authorizeRequest(host, params));

    const shown = await host.request('GET', `/oauth/requests/${id}`, { token: person });
    const allowed = await answer(host, id, person, 'allow');
    const code = codeOf(allowed);
    const tokens = await exchangeCode(host, clientId, code, verifier, { redirect_uri: CURSOR_APP });

    expect(shown.body).toMatchObject({
      redirect_uri: CURSOR_APP,
      redirect_host: 'cursor: (an app on this device)',
    });
    // RFC 9207: the issuer comes back with the code.
    expect(allowed.body.redirect_to).toBe(
      `${CURSOR_APP}?code=${code}&state=st+ate%261&iss=${encodeURIComponent(host.url)}`,
    );
    expect(tokens.status).toBe(200);
  });

  it('sends an error back to the app scheme too, with its state', async () => {
    const clientId = (
      await register({ client_name: 'Cursor', redirect_uris: CURSOR }, '127.0.0.36')
    ).body.client_id;
    const { challenge } = pkcePair();

    const response = await authorizeRequest(
      host,
      authorizationParams(host, clientId, challenge, {
        redirect_uri: CURSOR_APP,
        code_challenge_method: 'plain',
      }),
    );

    expect(response.status).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith(`${CURSOR_APP}?error=invalid_request&`)).toBe(true);
    expect(new URL(location).searchParams.get('state')).toBe('state-123');
  });
});

describe('registrations that repeat', () => {
  it('gives 40 identical public registrations from one address one client, counted once of 20', async () => {
    const from = '127.0.0.40';
    const metadata = { client_name: 'Repeating agent', redirect_uris: CURSOR };

    const repeated = [];
    for (let i = 0; i < 40; i++) repeated.push(await register(metadata, from));
    const distinct = [];
    for (let i = 0; i < 20; i++) {
      distinct.push(await register({ client_name: `Agent ${i}`, redirect_uris: CURSOR }, from));
    }

    expect(repeated.map((response) => response.status)).toEqual(Array(40).fill(201));
    expect(new Set(repeated.map((response) => response.body.client_id)).size).toBe(1);
    expect(new Set(repeated.map((response) => response.body.client_id_issued_at)).size).toBe(1);
    const stored = await items('OAUTHCLIENT#');
    expect(stored.filter((item) => item.clientName === 'Repeating agent')).toHaveLength(1);
    // 1 + 19 distinct fill the budget of 20; the 20th distinct is the 21st client.
    expect(distinct.slice(0, 19).every((response) => response.status === 201)).toBe(true);
    expect(distinct[19]?.status).toBe(429);
    expect(distinct[19]?.headers.get('retry-after')).toMatch(/^\d+$/);
    // A repeat of a registration already made still costs nothing, the budget spent or not.
    expect((await register(metadata, from)).body.client_id).toBe(repeated[0]?.body.client_id);
  });

  it('answers the 21st distinct registration from one address 429', async () => {
    const statuses = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await register({ client_name: `Distinct ${i}`, redirect_uris: [CLAUDE] }, '127.0.0.41'))
          .status,
      );
    }

    expect(statuses).toEqual([...Array(20).fill(201), 429]);
  });

  it('gives identical registrations that arrive together one client', async () => {
    const from = '127.0.0.42';
    const metadata = { client_name: 'Parallel agent', redirect_uris: VS_CODE };

    const together = await Promise.all(Array.from({ length: 10 }, () => register(metadata, from)));

    expect(together.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect(new Set(together.map((response) => response.body.client_id)).size).toBe(1);
    expect(
      (await items('OAUTHCLIENT#')).filter((item) => item.clientName === 'Parallel agent'),
    ).toHaveLength(1);
    expect(await budgetUsed(from)).toBe(1);
    expect(await items(`OAUTHREGDEDUP#${sourceKey(from)}#`)).toHaveLength(1);
  });

  it('gives a repeated confidential registration a new client and secret, never the first secret again, counted once', async () => {
    const from = '127.0.0.43';
    const metadata = {
      client_name: 'Claude',
      redirect_uris: [CLAUDE],
      token_endpoint_auth_method: 'client_secret_post',
    };

    // claude.ai's two registrations of one attempt arrive together; then it tries again.
    const answers = [
      ...(await Promise.all([register(metadata, from), register(metadata, from)])),
      await register(metadata, from),
    ];

    expect(answers.map((response) => response.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((response) => response.body.client_id)).size).toBe(3);
    expect(new Set(answers.map((response) => response.body.client_secret)).size).toBe(3);
    expect(await budgetUsed(from)).toBe(1);
    // Each works with its own secret, and no other's.
    for (const [i, made] of answers.entries()) {
      const other = answers[(i + 1) % answers.length]?.body.client_secret;
      const own = await exchangeWith(made.body.client_id, made.body.client_secret);
      const wrong = await exchangeWith(made.body.client_id, other);
      expect(own.status).toBe(200);
      expect(wrong.status).toBe(401);
    }
  });

  it('stores a repeat record for an hour, naming the client', async () => {
    const from = '127.0.0.44';
    const before = Date.now();
    const made = await register({ client_name: 'Timed agent', redirect_uris: [CLAUDE] }, from);
    const [record] = await items(`OAUTHREGDEDUP#${sourceKey(from)}#`);

    expect(record).toMatchObject({ clientId: made.body.client_id });
    const hour = 3_600;
    expect(Number(record?.expiresAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) + hour - 1);
    expect(Number(record?.expiresAt)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + hour + 1);
  });
});
