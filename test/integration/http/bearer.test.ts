// SECURITY.md, "Tokens (every protected route)", over HTTP on every protected route of the table.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../../lib/routes';
import { comparableProblem, startTestHost, TEST_SECRET, type TestHost } from '../../support/host';
import { connectApp } from '../../support/oauth';
import { forgedTokens, settingsFor, sign, validClaims } from '../../support/tokens';

const protectedRoutes = routeList.filter((route) => route.auth);
let host: TestHost;
let userId: string;
let token: string;
/** An OAuth access token of the same user, for /mcp (which takes no login token). */
let mcpAccess: string;
/** An API key of the same user, and one that was deleted. */
let apiKey: string;
let deletedKey: string;
let connections = 0;
const jwks = createServer((_request, response) => {
  connections++;
  response.end('{}');
});
let jkuUrl: string;

beforeAll(async () => {
  host = await startTestHost();
  ({ token } = await host.registerAndLogin());
  userId = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub;
  apiKey = (await host.request('POST', '/api-keys', { json: { name: 'probe' }, token })).body.key;
  const deleted = await host.request('POST', '/api-keys', { json: { name: 'gone' }, token });
  deletedKey = deleted.body.key;
  await host.request('DELETE', `/api-keys/${deleted.body.id}`, { token });
  mcpAccess = (await connectApp(host, token)).access;
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jkuUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
});
afterAll(async () => {
  await host?.close();
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
});

/**
 * Per protected route, a request it refuses once authenticated (422 for a bad body or query,
 * 404 for an unknown job): it proves the token passed without doing any work. A protected
 * route added to the table without one here fails its control test.
 */
const probes: Record<string, { path: string; query?: string; json?: unknown; status: number }> = {
  'POST /summarize': { path: '/summarize', json: { video_url: 'not a video' }, status: 422 },
  'GET /summaries': { path: '/summaries', query: '?limit=0', status: 422 },
  'POST /ask': { path: '/ask', json: { video_url: 'GJLlxj_dtq8', question: '' }, status: 422 },
  'GET /summaries/{id}': { path: '/summaries/AAAAAAAAAAAAAAAAAAAAAA', status: 404 },
  'DELETE /summaries/{id}': { path: '/summaries/AAAAAAAAAAAAAAAAAAAAAA', status: 404 },
  'POST /collections': { path: '/collections', json: { url: '' }, status: 422 },
  'GET /collections': { path: '/collections', query: '?limit=0', status: 422 },
  'GET /collections/{id}': { path: '/collections/AAAAAAAAAAAAAAAAAAAAAA', status: 404 },
  'DELETE /collections/{id}': { path: '/collections/AAAAAAAAAAAAAAAAAAAAAA', status: 404 },
  'POST /collections/{id}/ask': {
    path: '/collections/AAAAAAAAAAAAAAAAAAAAAA/ask',
    json: { question: 'What is it about?' },
    status: 404,
  },
  'POST /api-keys': { path: '/api-keys', json: { name: '' }, status: 422 },
  // Nothing to refuse: the caller's (empty or not) list.
  'GET /api-keys': { path: '/api-keys', status: 200 },
  'DELETE /api-keys/{id}': { path: '/api-keys/AAAAAAAAAAAAAAAAAAAAAA', status: 404 },
  // No password: refused before it is checked, so nothing is deleted.
  'DELETE /account': { path: '/account', json: {}, status: 422 },
  // A JSON-RPC request without the Accept header MCP asks for: the SDK's 406, past the token.
  'POST /mcp': { path: '/mcp', json: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, status: 406 },
  'GET /oauth/requests/{id}': { path: '/oauth/requests/AAAAAAAAAAAAAAAAAAAAAA', status: 404 },
  'POST /oauth/requests/{id}': {
    path: '/oauth/requests/AAAAAAAAAAAAAAAAAAAAAA',
    json: { decision: 'maybe' },
    status: 422,
  },
  // Nothing to refuse: the caller's (empty or not) list.
  'GET /connected-apps': { path: '/connected-apps', status: 200 },
  'DELETE /connected-apps/{id}': { path: '/connected-apps/AAAAAAAAAAAAAAAAAAAAAA', status: 404 },
};

describe.each(
  protectedRoutes.map((route) => [
    `${route.method} ${route.path}`,
    route.method,
    route.loginOnly,
    route.mcpTokens,
  ]),
)('%s', (routeKey, method, loginOnly, mcpTokens) => {
  const probe = probes[routeKey] ?? { path: '/unprobed', status: -1 };
  // The probe's own query goes first; a test's extra parameter joins it.
  const call = (headers: Record<string, string> = {}, query = '') => {
    const own = probe.query ?? '';
    const joined = own && query ? `${own}&${query.slice(1)}` : own || query;
    return host.request(method, probe.path + joined, {
      ...(probe.json === undefined ? {} : { json: probe.json }),
      headers,
    });
  };

  it('lets a valid token through (control): a login token, or at /mcp an access token for it', async () => {
    const response = await call({ authorization: `Bearer ${mcpTokens ? mcpAccess : token}` });

    expect(response.status).toBe(probe.status);
  });

  it(
    loginOnly
      ? 'refuses an API key with 403 login-token-required'
      : 'lets an API key through, as a token',
    async () => {
      const response = await call({ authorization: `Bearer ${apiKey}` });

      if (loginOnly) {
        expect(response.status).toBe(403);
        expect(response.body.type).toBe('urn:tubesum:problem:login-token-required');
      } else {
        expect(response.status).toBe(probe.status);
      }
    },
  );

  it('answers a deleted, unknown or malformed API key with the same 401 as a forged token', async () => {
    const reference = comparableProblem(await call({ authorization: 'Bearer forged' }));
    const keys = {
      deleted: deletedKey,
      unknown: `tsk_${'A'.repeat(43)}`,
      malformed: `tsk_${'A'.repeat(42)}`,
    };

    for (const [name, key] of Object.entries(keys)) {
      const response = await call({ authorization: `Bearer ${key}` });
      expect(comparableProblem(response), name).toEqual(reference);
    }
    expect(reference.status).toBe(401);
  });

  it('answers a missing Authorization header with 401 and WWW-Authenticate: Bearer', async () => {
    const response = await call();

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('answers every forged or broken token with the same 401 and fetches nothing', async () => {
    const settings = settingsFor(TEST_SECRET);
    const cases = await forgedTokens(settings, userId, jkuUrl);
    const reference = comparableProblem(
      await call({ authorization: `Bearer ${cases['alg none']}` }),
    );

    for (const [name, forged] of Object.entries(cases)) {
      const response = await call({ authorization: `Bearer ${forged}` });
      expect(comparableProblem(response), name).toEqual(reference);
    }
    expect(reference.status).toBe(401);
    expect(reference.challenge).toContain('error="invalid_token"');
    expect(connections).toBe(0);
  });

  it.each([
    ['a token in the query string', {}, '?access_token=TOKEN'],
    ['a token in a cookie', { cookie: 'access_token=TOKEN' }, ''],
    ['Basic credentials', { authorization: 'Basic dXNlcjpwYXNz' }, ''],
    ['Bearer with nothing after it', { authorization: 'Bearer ' }, ''],
    ['Bearer with two tokens', { authorization: 'Bearer TOKEN TOKEN' }, ''],
  ])('answers %s with 401, never 500', async (_case, headers, query) => {
    const fill = (value: string) => value.replace('TOKEN', token);
    const filled = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, fill(v as string)]),
    );

    const response = await call(filled, fill(query));

    expect(response.status).toBe(401);
  });

  it('refuses a valid token whose user no longer exists', async () => {
    const ghost = await host.registerAndLogin();
    const ghostId = JSON.parse(
      Buffer.from(ghost.token.split('.')[1] ?? '', 'base64url').toString(),
    ).sub;
    // At /mcp, an app's access token of that user, made while the user was there.
    const credential = mcpTokens ? (await connectApp(host, ghost.token)).access : ghost.token;
    const { db, config } = host;
    await db.send(
      new DeleteCommand({ TableName: config.TABLE_NAME, Key: { pk: `USER#${ghostId}` } }),
    );

    const response = await call({ authorization: `Bearer ${credential}` });

    expect(response.status).toBe(401);
  });

  it('refuses a token that is valid in every way but signed for someone unknown', async () => {
    const settings = settingsFor(TEST_SECRET);
    const stranger = await sign(
      settings,
      validClaims(settings, '00000000-0000-4000-8000-000000000000'),
    );

    const response = await call({ authorization: `Bearer ${stranger}` });

    expect(response.status).toBe(401);
  });
});

it('has a probe for every protected route, and only for those', () => {
  expect(protectedRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
    Object.keys(probes).sort(),
  );
});
