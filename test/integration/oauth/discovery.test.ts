// How an MCP client finds out how to connect, over HTTP against the real local host: /mcp's 401
// names its protected resource metadata (RFC 9728), which names the authorization server, whose
// metadata (RFC 8414) names the endpoints; and dynamic client registration (RFC 7591), which is
// not account registration, refuses what it must, is limited per address, and expires unused.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { REDIRECT_URI } from '../../support/oauth';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({ OAUTH_REGISTER_MAX_PER_IP: '3' });
});
afterAll(() => host?.close());

const register = (json: unknown, from?: string) =>
  host.request('POST', '/oauth/register', { json, ...(from ? { from } : {}) });

describe('discovery', () => {
  it('answers /mcp without credentials with 401 naming the resource metadata and every scope, keeping the realm', async () => {
    const response = await host.request('POST', '/mcp', {
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="tubesum", resource_metadata="${host.url}/.well-known/oauth-protected-resource/mcp", scope="summaries:read summaries:write"`,
    );
  });

  it('serves the protected resource metadata of /mcp at its path and at the root', async () => {
    const atPath = await host.request('GET', '/.well-known/oauth-protected-resource/mcp');
    const atRoot = await host.request('GET', '/.well-known/oauth-protected-resource');

    for (const response of [atPath, atRoot]) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        resource: `${host.url}/mcp`,
        authorization_servers: [host.url],
        scopes_supported: ['summaries:read', 'summaries:write'],
      });
    }
  });

  it('serves the authorization server metadata with exactly the fields MCP clients read', async () => {
    const response = await host.request('GET', '/.well-known/oauth-authorization-server');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      issuer: host.url,
      authorization_endpoint: `${host.url}/oauth/authorize`,
      token_endpoint: `${host.url}/oauth/token`,
      registration_endpoint: `${host.url}/oauth/register`,
      revocation_endpoint: `${host.url}/oauth/revoke`,
      scopes_supported: ['summaries:read', 'summaries:write'],
      authorization_response_iss_parameter_supported: true,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      client_id_metadata_document_supported: true,
    });
    expect(response.body.registration_endpoint).not.toBe(`${host.url}/register`);
  });

  it('names the public origin of PUBLIC_URL when it is set, whatever the Host', async () => {
    const behindProxy = await startTestHost({ PUBLIC_URL: 'https://tubesum.example.com' });
    try {
      const metadata = await behindProxy.request('GET', '/.well-known/oauth-authorization-server');
      const resource = await behindProxy.request(
        'GET',
        '/.well-known/oauth-protected-resource/mcp',
      );

      expect(metadata.body.issuer).toBe('https://tubesum.example.com');
      expect(resource.body.resource).toBe('https://tubesum.example.com/mcp');
    } finally {
      await behindProxy.close();
    }
  });
});

describe('dynamic client registration', () => {
  it('registers a public client with https and loopback redirect URIs (any port)', async () => {
    const response = await register(
      {
        client_name: 'Claude',
        redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'http://localhost:33418/cb'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'anything',
        logo_uri: 'https://example.com/logo.png',
      },
      '127.0.0.10',
    );

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      client_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'http://localhost:33418/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(response.body).not.toHaveProperty('client_secret');
  });

  it.each([
    ['http on another host', 'http://example.com/cb', 'invalid_redirect_uri'],
    ['a single-word scheme of no known app', 'myapp://callback', 'invalid_redirect_uri'],
    ['a fragment', 'https://example.com/cb#x', 'invalid_redirect_uri'],
    ['credentials', 'https://user:pass@example.com/cb', 'invalid_redirect_uri'],
    ['javascript:', 'javascript:alert(1)', 'invalid_redirect_uri'],
  ])('refuses a redirect URI with %s (400 %s, RFC 7591 JSON)', async (_, uri, error) => {
    const response = await register({ redirect_uris: [uri] }, '127.0.0.11');

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ error, error_description: expect.any(String) });
  });

  it('refuses a method it does not serve, a grant it does not do, a name that could spoof another, and a malformed body', async () => {
    const secret = await register(
      { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'private_key_jwt' },
      '127.0.0.12',
    );
    const implicit = await register(
      { redirect_uris: [REDIRECT_URI], grant_types: ['implicit'] },
      '127.0.0.12',
    );
    const spoof = await register(
      { redirect_uris: [REDIRECT_URI], client_name: 'Claude\u202Eedualc' },
      '127.0.0.12',
    );
    const none = await register({ client_name: 'no URIs' }, '127.0.0.12');
    const notJson = await host.request('POST', '/oauth/register', {
      body: '{"redirect_uris":',
      headers: { 'content-type': 'application/json' },
      from: '127.0.0.12',
    });

    for (const refused of [secret, implicit, spoof, none, notJson]) {
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_client_metadata');
    }
  });

  it('limits registrations per address (429 with Retry-After), not the other addresses', async () => {
    const made = [];
    for (let i = 0; i < 4; i++)
      made.push(
        await register({ client_name: `App ${i}`, redirect_uris: [REDIRECT_URI] }, '127.0.0.20'),
      );
    const elsewhere = await register({ redirect_uris: [REDIRECT_URI] }, '127.0.0.21');

    expect(made.map((response) => response.status)).toEqual([201, 201, 201, 429]);
    expect(made[3]?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(made[3]?.body.error).toBe('temporarily_unavailable');
    expect(elsewhere.status).toBe(201);
  });

  it('stores a registration with a TTL of a day, which an unused client never outlives', async () => {
    const before = Date.now();
    const response = await register({ redirect_uris: [REDIRECT_URI] }, '127.0.0.13');
    const { Item } = await host.db.send(
      new GetCommand({
        TableName: host.config.TABLE_NAME,
        Key: { pk: `OAUTHCLIENT#${response.body.client_id}` },
      }),
    );

    const day = 86_400;
    expect(Item?.expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) + day - 1);
    expect(Item?.expiresAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + day + 1);
  });

  it('leaves account registration at /register as it was', async () => {
    const response = await host.request('POST', '/register', {
      json: { redirect_uris: [REDIRECT_URI], client_name: 'An MCP client' },
    });

    expect(response.status).toBe(422);
    expect(response.body.type).toBe('urn:tubesum:problem:validation-error');
  });
});
