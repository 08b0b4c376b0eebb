// Dynamic client registration (RFC 7591) as the hosts people use register, over HTTP against the
// real local host (docs/oauth.md "Clients", docs/SECURITY.md "OAuth for /mcp"):
// - claude.ai and Claude Desktop ask for client_secret_post (anthropics/claude-ai-mcp #1043: "rejected
//   by a public-client-only authorization server"), and register twice per attempt from shared
//   addresses (#597, #654): a confidential client gets a secret, shown once, kept as a hash;
// - Cursor registers cursor://, https and localhost callbacks in one request
//   (makeplane/plane-mcp-server #159): all three are kept, and a URI that cannot be used
//   (javascript:, whitespace around it) is left out, the registration refused only when none can;
// - VS Code leaves token_endpoint_auth_method out (microsoft/vscode #278512): a public client.
// The answer to an app scheme (RFC 8252 7.1) goes back to it as written, and the consent screen
// names its scheme.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(allowed.body.redirect_to).toBe(`${CURSOR_APP}?code=${code}&state=st+ate%261`);
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
