// Client ID metadata documents: a client_id that is an https URL is fetched as the client's
// metadata, with the SSRF guards of docs/SECURITY.md ("OAuth for /mcp"): only public addresses
// (a name that resolves to this machine is refused as its address is; the connection's own DNS
// answer is checked), no redirects, a deadline and a size cap; the document must name its own
// URL as client_id. A local https server stands for the client's site: one host refuses it as
// the loopback address it is (the SSRF cases), another is told to allow that one address (what
// a public site would be), to show the rest. A document follows a registration's rules (the
// redirect URIs it can use are kept), and costs no registration: claude.ai's
// https://claude.ai/oauth/mcp-oauth-client-metadata is never stored as a client.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  METADATA_HOST,
  type MetadataServer,
  REBIND_HOST,
  startMetadataServer,
  TEST_CA,
  testLookup,
} from '../../support/client-metadata-server';
import { startTestHost, type TestHost } from '../../support/host';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  codeOf,
  exchangeCode,
  forwardedTo,
  pkcePair,
  REDIRECT_URI,
  requestIdOf,
} from '../../support/oauth';

let site: MetadataServer;
/** The deployment as shipped: public addresses only (the test's names resolve to loopback). */
let strict: TestHost;
/**
 * Told to take the local server's one address, as if it were public, with the shipped deadline
 * (5 s: a TLS handshake on a loaded machine fits in it).
 */
let lenient: TestHost;
/** The same, with a 1 s deadline: only for a document that never comes. */
let impatient: TestHost;
let token: string;
const { verifier, challenge } = pkcePair();

beforeAll(async () => {
  site = await startMetadataServer();
  strict = await startTestHost(
    {},
    { services: { clientMetadata: { lookup: testLookup, ca: TEST_CA } } },
  );
  const allowed = { lookup: testLookup, ca: TEST_CA, allowAddresses: ['127.0.0.1'] };
  lenient = await startTestHost({}, { services: { clientMetadata: allowed } });
  impatient = await startTestHost(
    {},
    { services: { clientMetadata: { ...allowed, timeoutMs: 1_000 } } },
  );
  ({ token } = await lenient.registerAndLogin());
});
afterAll(async () => {
  await strict?.close();
  await lenient?.close();
  await impatient?.close();
  await site?.close();
});

/** A document for `url`, as a client publishes it. */
const documentFor = (url: string, more: Record<string, unknown> = {}) => ({
  client_id: url,
  client_name: 'Metadata App',
  redirect_uris: [REDIRECT_URI],
  ...more,
});

const authorizeAs = (host: TestHost, clientId: string) =>
  authorizeRequest(host, authorizationParams(host, clientId, challenge));

describe('a client ID metadata document on a private, loopback or link-local address', () => {
  it.each([
    ['a name that resolves to loopback', () => site.url('/rebind.json', REBIND_HOST)],
    ['a loopback IPv4 literal', () => site.url('/literal.json', '127.0.0.1')],
    ['a loopback IPv6 literal', () => site.url('/v6.json', '[::1]')],
    ['an IPv4-mapped loopback', () => site.url('/mapped.json', '[::ffff:7f00:1]')],
    ['the metadata service', () => 'https://169.254.169.254/latest/meta-data/client.json'],
    ['a private network', () => 'https://10.0.0.1/client.json'],
    ['the unspecified address', () => site.url('/zero.json', '0.0.0.0')],
  ])('is not fetched: %s gets an error page, and no connection is made', async (_, url) => {
    const clientId = url();
    const path = new URL(clientId).pathname;
    site.document(path, documentFor(clientId));
    const before = site.connections;

    const response = await authorizeAs(strict, clientId);

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.text).toMatch(
      /cannot be verified: its client_id URL is not on a public address/,
    );
    expect(site.connections).toBe(before);
    expect(site.requests).not.toContain(path);
  });

  it('is not fetched when the URL is not one a metadata document may have', async () => {
    const before = site.connections;
    const refused = await Promise.all(
      [
        `https://user:secret@${METADATA_HOST}:${site.port}/creds.json`,
        `https://${METADATA_HOST}:${site.port}/`,
        `https://${METADATA_HOST}:${site.port}/a/../dots.json`,
      ].map((clientId) => authorizeAs(lenient, clientId)),
    );

    for (const response of refused) expect(response.status).toBe(400);
    expect(site.connections).toBe(before);
  });
});

describe('a client ID metadata document on an allowed address', () => {
  it('is fetched, names the app on the consent screen, and its client_id works at the token endpoint', async () => {
    const clientId = site.url('/good.json');
    site.document('/good.json', documentFor(clientId));

    const response = await authorizeAs(lenient, clientId);
    const id = requestIdOf(response);
    const shown = await lenient.request('GET', `/oauth/requests/${id}`, { token });
    const code = codeOf(await answer(lenient, id, token, 'allow'));
    const tokens = await exchangeCode(lenient, clientId, code, verifier);

    expect(shown.body).toMatchObject({ client_id: clientId, client_name: 'Metadata App' });
    expect(tokens.status).toBe(200);
  });

  it('keeps the redirect URIs it can use, as a registration does: one it cannot is refused when asked for', async () => {
    const clientId = site.url('/partly.json');
    const cursor = 'cursor://anysphere.cursor-mcp/oauth/callback';
    site.document(
      '/partly.json',
      documentFor(clientId, { redirect_uris: ['javascript:alert(1)', REDIRECT_URI, cursor] }),
    );
    const asking = (redirect_uri: string) =>
      authorizeRequest(
        lenient,
        authorizationParams(lenient, clientId, challenge, { redirect_uri }),
      );

    const usable = await asking(REDIRECT_URI);
    const app = await asking(cursor);
    const refused = await asking('javascript:alert(1)');

    expect(forwardedTo(usable)?.searchParams.get('authorize')).toBeTruthy();
    expect(forwardedTo(app)?.searchParams.get('authorize')).toBeTruthy();
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(refused.text).toContain('did not register');
  });

  it('takes claude.ai’s document as it is published: a grant type it lists that is not served here (jwt-bearer) is left out', async () => {
    // https://claude.ai/oauth/mcp-oauth-client-metadata, field for field but its URL
    // (sebadob/rauthy #1644, anthropics/claude-ai-mcp #487: RFC 7591 3.2.1 lets the server
    // narrow what a client asks for).
    const clientId = site.url('/claude.json');
    site.document('/claude.json', {
      ...documentFor(clientId, { client_name: 'Claude', client_uri: 'https://claude.ai' }),
      grant_types: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });

    const id = requestIdOf(await authorizeAs(lenient, clientId));
    const shown = await lenient.request('GET', `/oauth/requests/${id}`, { token });

    expect(shown.body).toMatchObject({ client_id: clientId, client_name: 'Claude' });
  });

  it('takes ChatGPT’s document, which prefers private_key_jwt and lists none among its methods: a public client here', async () => {
    // https://chatgpt.com/oauth/<id>/client.json (Altinity/altinity-mcp #118, tableau/tableau-mcp
    // #814): this server offers none, so ChatGPT uses none and PKCE (OpenID Connect Registration's
    // "RP Metadata Choices").
    const clientId = site.url('/chatgpt.json');
    site.document('/chatgpt.json', {
      ...documentFor(clientId, { client_name: 'ChatGPT', client_uri: 'https://chatgpt.com/' }),
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
      token_endpoint_auth_signing_alg: 'RS256',
      jwks_uri: 'https://chatgpt.com/oauth/jwks.json',
    });

    const id = requestIdOf(await authorizeAs(lenient, clientId));
    const code = codeOf(await answer(lenient, id, token, 'allow'));
    const tokens = await exchangeCode(lenient, clientId, code, verifier);

    expect(tokens.status).toBe(200);
  });

  it('costs no registration: nothing is stored as a client, and the address’s budget is untouched', async () => {
    const budgeted = await startTestHost(
      { OAUTH_REGISTER_MAX_PER_IP: '1' },
      {
        services: {
          clientMetadata: { lookup: testLookup, ca: TEST_CA, allowAddresses: ['127.0.0.1'] },
        },
      },
    );
    try {
      const clientId = site.url('/free.json');
      site.document('/free.json', documentFor(clientId));

      const authorized = [];
      for (let i = 0; i < 3; i++) authorized.push(await authorizeAs(budgeted, clientId));
      const { Items = [] } = await budgeted.db.send(
        new ScanCommand({ TableName: budgeted.config.TABLE_NAME, ConsistentRead: true }),
      );
      const registration = await budgeted.request('POST', '/oauth/register', {
        json: { redirect_uris: [REDIRECT_URI] },
      });

      for (const response of authorized) expect(requestIdOf(response)).toBeTruthy();
      const keys = Items.map((item) => String(item.pk));
      expect(keys.filter((key) => /^OAUTH(CLIENT|REGISTER|REGDEDUP)#/.test(key))).toEqual([]);
      expect(registration.status).toBe(201);
    } finally {
      await budgeted.close();
    }
  });

  it('is cached: a second authorization does not fetch it again', async () => {
    const clientId = site.url('/cached.json');
    site.document('/cached.json', documentFor(clientId));

    await authorizeAs(lenient, clientId);
    const fetched = site.requests.filter((path) => path === '/cached.json').length;
    const again = await authorizeAs(lenient, clientId);

    expect(forwardedTo(again)?.searchParams.get('authorize')).toBeTruthy();
    expect(fetched).toBe(1);
    expect(site.requests.filter((path) => path === '/cached.json')).toHaveLength(1);
  });

  it.each([
    ['names another client_id', (url: string) => documentFor(`${url}-other`), /another client_id/],
    [
      'lists a redirect URI that is not https or loopback',
      (url: string) => documentFor(url, { redirect_uris: ['http://evil.example.com/cb'] }),
      /refused/,
    ],
    [
      'does not list the redirect URI asked for',
      (url: string) => documentFor(url, { redirect_uris: ['http://127.0.0.1:5555/elsewhere'] }),
      /did not register/,
    ],
    [
      'asks for a client secret',
      (url: string) => documentFor(url, { token_endpoint_auth_method: 'client_secret_post' }),
      /refused/,
    ],
    [
      'can only authenticate with a key (private_key_jwt, none not among its methods)',
      (url: string) =>
        documentFor(url, {
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_methods_supported: ['private_key_jwt'],
        }),
      /refused/,
    ],
  ])('is refused when it %s', async (_, make, reason) => {
    const path = `/refused-${Math.random().toString(36).slice(2)}.json`;
    const clientId = site.url(path);
    site.document(path, make(clientId));

    const response = await authorizeAs(lenient, clientId);

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.text).toMatch(reason);
  });

  it('is not followed where it redirects', async () => {
    const clientId = site.url('/moved.json');
    site.document('/target.json', documentFor(clientId));
    site.serve('/moved.json', (_, response) => {
      response.writeHead(302, { location: site.url('/target.json') }).end();
    });

    const response = await authorizeAs(lenient, clientId);

    expect(response.status).toBe(400);
    expect(response.text).toMatch(/redirects/);
    expect(site.requests).not.toContain('/target.json');
  });

  it.each([
    ['with a Content-Length', true],
    ['streamed without one', false],
  ])('is cut off when huge, %s', async (_, declared) => {
    const path = `/huge-${declared}.json`;
    const clientId = site.url(path);
    const body = JSON.stringify(documentFor(clientId, { padding: 'x'.repeat(200_000) }));
    site.serve(path, (_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': Buffer.byteLength(body) } : {}),
      });
      response.end(body);
    });

    const response = await authorizeAs(lenient, clientId);

    expect(response.status).toBe(400);
    expect(response.text).toMatch(/larger than 16384 bytes/);
  });

  it('is given up when slow, within the deadline', async () => {
    const clientId = site.url('/slow.json');
    // Never answered: whatever the machine's load, only the deadline ends the wait.
    site.serve('/slow.json', () => undefined);

    const response = await authorizeAs(impatient, clientId);

    expect(response.status).toBe(400);
    expect(response.text).toMatch(/did not answer within 1 s/);
  });

  it('is refused when it is not JSON', async () => {
    const clientId = site.url('/page.html');
    site.serve('/page.html', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    });

    const response = await authorizeAs(lenient, clientId);

    expect(response.status).toBe(400);
    expect(response.text).toMatch(/did not answer JSON/);
  });
});
