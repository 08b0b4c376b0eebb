// The authorization endpoint and the page's answer to it, over HTTP against the real local host
// (docs/SECURITY.md, "OAuth for /mcp"): a redirect URI that is not exactly one the client
// registered gets an error page and never a redirect; no PKCE or `plain` goes back as
// invalid_request; the request is answered once, by the person's own sign-in, from this origin;
// the consent page cannot be framed.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  connectApp,
  forwardedTo,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  requestIdOf,
} from '../../support/oauth';

let host: TestHost;
let token: string;
let clientId: string;
let secureClientId: string;
const { challenge } = pkcePair();
const SECURE_REDIRECT = 'https://app.example.com/oauth/callback?tenant=1';

beforeAll(async () => {
  host = await startTestHost();
  ({ token } = await host.registerAndLogin());
  clientId = await registerClient(host);
  secureClientId = await registerClient(host, { redirect_uris: [SECURE_REDIRECT] });
});
afterAll(() => host?.close());

/** Where a 303 goes, as a URL. */
const location = (response: { headers: Headers }) =>
  new URL(response.headers.get('location') ?? 'about:blank');

describe('GET /oauth/authorize', () => {
  it('sends a request it can trust on to the page, neither of which can be framed', async () => {
    const response = await authorizeRequest(host, authorizationParams(host, clientId, challenge));
    const page = await host.request('GET', `/?authorize=${requestIdOf(response)}`);

    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    const next = forwardedTo(response);
    expect(`${next?.origin}${next?.pathname}`).toBe(`${host.url}/`);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    ['another host', 'https://evil.example.com/oauth/callback?tenant=1'],
    ['another path', 'https://app.example.com/oauth/other?tenant=1'],
    ['another port', 'https://app.example.com:8443/oauth/callback?tenant=1'],
    ['another scheme', 'http://app.example.com/oauth/callback?tenant=1'],
    ['another query', 'https://app.example.com/oauth/callback?tenant=2'],
    ['a suffix', 'https://app.example.com/oauth/callback?tenant=1&x=1'],
  ])('answers a redirect_uri on %s with an error page, never a redirect there', async (_, uri) => {
    const response = await authorizeRequest(
      host,
      authorizationParams(host, secureClientId, challenge, { redirect_uri: uri }),
    );

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.text).toContain('did not register');
    expect(response.text).not.toContain(uri);
  });

  it('takes a loopback redirect URI on another port (RFC 8252), but not another path', async () => {
    const otherPort = await authorizeRequest(
      host,
      authorizationParams(host, clientId, challenge, {
        redirect_uri: 'http://127.0.0.1:61234/callback',
      }),
    );
    const otherPath = await authorizeRequest(
      host,
      authorizationParams(host, clientId, challenge, {
        redirect_uri: 'http://127.0.0.1:5555/other',
      }),
    );

    expect(forwardedTo(otherPort)?.searchParams.get('authorize')).toBeTruthy();
    expect(otherPath.status).toBe(400);
  });

  it('answers an unknown client, or none, with an error page', async () => {
    const unknown = await authorizeRequest(
      host,
      authorizationParams(host, 'AAAAAAAAAAAAAAAAAAAAAA', challenge),
    );
    const none = await authorizeRequest(
      host,
      authorizationParams(host, clientId, challenge, { client_id: undefined }),
    );

    for (const response of [unknown, none]) {
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('answers a registration that expired unused with an error page, before the table’s TTL removes it', async () => {
    // Another name: the same registration again would be the client the other tests use.
    const expiring = await registerClient(host, { client_name: 'Expiring agent' });
    // A day later, nobody having allowed it (DynamoDB's TTL deletes the item some time after).
    await host.db.send(
      new UpdateCommand({
        TableName: host.config.TABLE_NAME,
        Key: { pk: `OAUTHCLIENT#${expiring}` },
        UpdateExpression: 'SET clientExpiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );

    const response = await authorizeRequest(host, authorizationParams(host, expiring, challenge));

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.text).toContain('registration expired');
  });

  it.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method (plain)', { code_challenge_method: undefined }, 'invalid_request'],
    ['a challenge that is not S256', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['another resource', { resource: 'https://other.example.com/mcp' }, 'invalid_target'],
  ])(
    'sends %s back to the client as %s, with its state, and makes no request',
    async (_, more, error) => {
      const response = await authorizeRequest(
        host,
        authorizationParams(host, clientId, challenge, more),
      );

      expect(response.status).toBe(303);
      const back = location(response);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
      expect(back.searchParams.get('error')).toBe(error);
      expect(back.searchParams.get('state')).toBe('state-123');
      expect(back.searchParams.get('code')).toBeNull();
    },
  );

  it('refuses a parameter given twice', async () => {
    const params = new URLSearchParams(
      authorizationParams(host, clientId, challenge) as Record<string, string>,
    );
    params.append('code_challenge', challenge);

    const response = await host.request('GET', `/oauth/authorize?${params}`);

    expect(location(response).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('the answer (POST /oauth/requests/{id})', () => {
  const pending = async () =>
    requestIdOf(await authorizeRequest(host, authorizationParams(host, clientId, challenge)));

  it('shows the app’s name and where the answer goes, to the person signed in', async () => {
    const id = await pending();

    const response = await host.request('GET', `/oauth/requests/${id}`, { token });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      client_id: clientId,
      client_name: 'Test agent',
      redirect_uri: REDIRECT_URI,
      redirect_host: '127.0.0.1:5555',
    });
  });

  it('sends Allow back with a code and the state unchanged, once', async () => {
    const state = 'a b&c=d/é';
    const id = requestIdOf(
      await authorizeRequest(host, authorizationParams(host, clientId, challenge, { state })),
    );

    const allowed = await answer(host, id, token, 'allow');
    const again = await answer(host, id, token, 'allow');

    expect(allowed.status).toBe(200);
    const back = new URL(allowed.body.redirect_to);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(back.searchParams.get('state')).toBe(state);
    expect(again.status).toBe(404);
  });

  it('sends Deny back with access_denied and no code', async () => {
    const denied = await answer(host, await pending(), token, 'deny');

    const back = new URL(denied.body.redirect_to);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-123');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses an answer posted from another site, one without a login token, and one with an API key', async () => {
    const id = await pending();
    const key = (await host.request('POST', '/api-keys', { json: { name: 'k' }, token })).body.key;
    const app = await connectApp(host, token);

    const crossSite = await answer(host, id, token, 'allow', 'https://evil.example.com');
    const asForm = await host.request('POST', `/oauth/requests/${id}`, {
      form: { decision: 'allow' },
      headers: { origin: 'https://evil.example.com' },
    });
    const byKey = await answer(host, id, key, 'allow');
    const byAppToken = await answer(host, id, app.access, 'allow');
    const stillThere = await host.request('GET', `/oauth/requests/${id}`, { token });

    expect(crossSite.status).toBe(403);
    expect(crossSite.body.type).toBe('urn:tubesum:problem:cross-site-request');
    expect(asForm.status).toBe(401);
    expect(byKey.status).toBe(403);
    expect(byKey.body.type).toBe('urn:tubesum:problem:login-token-required');
    expect(byAppToken.status).toBe(401);
    // None of them answered it: the person still can.
    expect(stillThere.status).toBe(200);
  });

  it('answers an unknown or malformed request id with the same 404', async () => {
    const unknown = await host.request('GET', '/oauth/requests/AAAAAAAAAAAAAAAAAAAAAA', { token });
    const malformed = await answer(host, '..%2F..%2Fadmin', token, 'allow');

    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    expect(malformed.body.type).toBe(unknown.body.type);
  });
});
