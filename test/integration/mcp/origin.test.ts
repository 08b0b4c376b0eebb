// The Origin rule of POST /mcp, over HTTP against the real local host (docs/mcp.md "Origin";
// docs/SECURITY.md "OAuth for /mcp"). MCP's Streamable HTTP transport (2025-11-25 and 2026-07-28,
// "Security Warning"): servers MUST validate Origin against DNS rebinding, and answer one that is
// present and invalid with 403 (a JSON-RPC error body MAY follow; this service answers its
// problem, as for its other refusals of a request). Taken: no Origin (a client that is not a
// browser), the deployment's own, and MCP_ALLOWED_ORIGINS (by default claude.ai's and ChatGPT's,
// whose servers name them); refused: any other, `null`, and a DNS-rebinding page (its Host and
// Origin both the attacker's name, as the official conformance suite's dns-rebinding scenario
// sends them), before the credential is looked at. CORS of /mcp (CORS_ORIGINS) allows the
// headers of the 2026-07-28 revision (Streamable HTTP, "Standard Headers": Mcp-Method, Mcp-Name).
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf } from '../../support/api-keys';
import { startTestHost, type TestHost } from '../../support/host';
import { MCP_TOOL_NAMES } from '../../support/mcp-tool';

const ACCEPT = 'application/json, text/event-stream';
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

let host: TestHost;
let key: string;
beforeAll(async () => {
  host = await startTestHost();
  const { token } = await host.registerAndLogin();
  key = await apiKeyOf(host, token);
});
afterAll(() => host?.close());

/** tools/list with the key, and these headers. */
const listFrom = (headers: Record<string, string>, on: TestHost = host, credential = key) =>
  on.request('POST', '/mcp', {
    token: credential,
    headers: { accept: ACCEPT, ...headers },
    json: LIST,
  });

describe('POST /mcp and Origin', () => {
  it.each([
    ['no Origin', {}],
    ['its own origin', () => ({ origin: host.url })],
    ['claude.ai', { origin: 'https://claude.ai' }],
    ['chatgpt.com', { origin: 'https://chatgpt.com' }],
  ])('takes a request with %s', async (_, headers) => {
    const response = await listFrom(typeof headers === 'function' ? headers() : headers);

    expect(response.status).toBe(200);
    expect(response.body.result.tools.length).toBe(MCP_TOOL_NAMES.length);
  });

  it.each([
    ['another site', 'https://evil.example.com'],
    ['an allowed host over http', 'http://claude.ai'],
    ['a subdomain of an allowed one', 'https://evil.claude.ai'],
    ['its own host on another port', 'http://127.0.0.1:1'],
    ['null (a sandboxed frame, a file)', 'null'],
  ])('refuses %s with 403 origin-not-allowed, before the credential', async (_, origin) => {
    const withKey = await listFrom({ origin });
    const withNothing = await host.request('POST', '/mcp', {
      headers: { accept: ACCEPT, origin },
      json: LIST,
    });

    for (const response of [withKey, withNothing]) {
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.body.type).toBe('urn:tubesum:problem:origin-not-allowed');
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('refuses a DNS-rebinding page: Host and Origin both the attacker’s name', async () => {
    const port = new URL(host.url).port;
    const rebound = `evil.example.com:${port}`;

    const response = await request(`${host.url}/mcp`, {
      method: 'POST',
      headers: {
        host: rebound,
        origin: `http://${rebound}`,
        authorization: `Bearer ${key}`,
        accept: ACCEPT,
        'content-type': 'application/json',
      },
      body: JSON.stringify(LIST),
    });
    const body = (await response.body.json()) as { type: string };

    expect(response.statusCode).toBe(403);
    expect(body.type).toBe('urn:tubesum:problem:origin-not-allowed');
  });

  it('takes the origins of MCP_ALLOWED_ORIGINS instead of the default ones, and none when it is empty', async () => {
    const own = await startTestHost({ MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
    const none = await startTestHost({ MCP_ALLOWED_ORIGINS: '' });
    try {
      const keyOf = async (on: TestHost) => apiKeyOf(on, (await on.registerAndLogin()).token);
      const [ownKey, noneKey] = [await keyOf(own), await keyOf(none)];

      const listed = await listFrom({ origin: 'https://app.example.com' }, own, ownKey);
      const claude = await listFrom({ origin: 'https://claude.ai' }, own, ownKey);
      const claudeToNone = await listFrom({ origin: 'https://claude.ai' }, none, noneKey);
      const itself = await listFrom({ origin: none.url }, none, noneKey);

      expect(listed.status).toBe(200);
      expect(claude.status).toBe(403);
      expect(claudeToNone.status).toBe(403);
      expect(itself.status).toBe(200);
    } finally {
      await own.close();
      await none.close();
    }
  });
});

describe('CORS of /mcp', () => {
  const APP = 'https://app.example.com';
  let browserHost: TestHost;
  let browserKey: string;
  beforeAll(async () => {
    // A browser MCP client on its own site: CORS lets it read the answers, MCP_ALLOWED_ORIGINS
    // lets /mcp take its requests.
    browserHost = await startTestHost({ CORS_ORIGINS: APP, MCP_ALLOWED_ORIGINS: APP });
    browserKey = await apiKeyOf(browserHost, (await browserHost.registerAndLogin()).token);
  });
  afterAll(() => browserHost?.close());

  it('answers a preflight for the headers of MCP’s 2026-07-28 revision', async () => {
    const asked = 'authorization, content-type, mcp-protocol-version, mcp-method, mcp-name';

    const preflight = await browserHost.request('OPTIONS', '/mcp', {
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': asked,
      },
    });

    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(', ');
    for (const name of asked.split(', ')) expect(allowed).toContain(name);
  });

  it('lets the page read the answer to a request with those headers', async () => {
    const response = await listFrom(
      { origin: APP, 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' },
      browserHost,
      browserKey,
    );

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
  });
});
