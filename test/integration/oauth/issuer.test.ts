// RFC 9207 over HTTP against the real local host (docs/oauth.md "The flow"; docs/SECURITY.md
// "OAuth for /mcp"): every authorization response the client's redirect URI receives, the code
// of an Allow and every error (access_denied, and the request's own problems), carries `iss`,
// the issuer exactly as the authorization server metadata names it, which says so with
// `authorization_response_iss_parameter_supported: true` (RFC 9207 2 and 2.3). The MCP
// authorization specification's 2026-07-28 revision ("Authorization Response Validation") has
// clients compare it, string for string, with the issuer they recorded, error responses
// included, and refuse a response without it when the metadata says it is supported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  requestIdOf,
} from '../../support/oauth';

let host: TestHost;
let token: string;
let clientId: string;
let issuer: string;
const { challenge } = pkcePair();

beforeAll(async () => {
  host = await startTestHost();
  ({ token } = await host.registerAndLogin());
  clientId = await registerClient(host);
  const metadata = await host.request('GET', '/.well-known/oauth-authorization-server');
  expect(metadata.body.authorization_response_iss_parameter_supported).toBe(true);
  issuer = metadata.body.issuer;
});
afterAll(() => host?.close());

/** The query of the client's redirect URI an answer sends the browser to. */
const backAt = (url: string) => {
  const back = new URL(url);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  return back.searchParams;
};

describe('iss on authorization responses', () => {
  it('comes with the code when the person allows, and with access_denied when they deny', async () => {
    const pending = async () =>
      requestIdOf(await authorizeRequest(host, authorizationParams(host, clientId, challenge)));

    const allowed = backAt((await answer(host, await pending(), token, 'allow')).body.redirect_to);
    const denied = backAt((await answer(host, await pending(), token, 'deny')).body.redirect_to);

    expect(allowed.get('code')).toBeTruthy();
    expect(allowed.get('iss')).toBe(issuer);
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('iss')).toBe(issuer);
    expect(issuer).toBe(host.url);
  });

  it.each([
    ['no PKCE challenge', { code_challenge: undefined }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['another resource', { resource: 'https://other.example.com/mcp' }, 'invalid_target'],
    ['a state too long', { state: 'x'.repeat(1_001) }, 'invalid_request'],
  ])('comes with the error sent back for %s', async (_, more, error) => {
    const response = await authorizeRequest(
      host,
      authorizationParams(host, clientId, challenge, more),
    );

    expect(response.status).toBe(303);
    const back = backAt(response.headers.get('location') ?? '');
    expect(back.get('error')).toBe(error);
    expect(back.get('iss')).toBe(issuer);
  });

  it('is PUBLIC_URL when it is set, as the metadata’s issuer is', async () => {
    const publicUrl = 'https://tubesum.example.com';
    const behindProxy = await startTestHost({ PUBLIC_URL: publicUrl });
    try {
      const person = await behindProxy.registerAndLogin();
      const client = await registerClient(behindProxy);
      const params = authorizationParams(behindProxy, client, challenge, {
        resource: `${publicUrl}/mcp`,
      });
      const metadata = await behindProxy.request('GET', '/.well-known/oauth-authorization-server');

      const refused = await authorizeRequest(behindProxy, { ...params, response_type: 'token' });
      const id = requestIdOf(await authorizeRequest(behindProxy, params));
      const allowed = await answer(behindProxy, id, person.token, 'allow', publicUrl);

      expect(metadata.body.issuer).toBe(publicUrl);
      expect(backAt(refused.headers.get('location') ?? '').get('iss')).toBe(publicUrl);
      expect(backAt(allowed.body.redirect_to).get('iss')).toBe(publicUrl);
    } finally {
      await behindProxy.close();
    }
  });
});
