// The scopes of /mcp's access tokens, granted, over HTTP against the real local host
// (docs/oauth.md "Scopes"; docs/SECURITY.md "OAuth for /mcp"). What an authorization request
// asks for is what the consent screen shows and Allow grants; the grant, its access tokens (their
// `scope` claim, RFC 9068 2.2.3) and every token answer (RFC 6749 5.1) carry it, and a refresh
// keeps it, whatever scope the refresh asks for (RFC 6749 6: a refresh never widens). No scope,
// or none of the service's, grants both (RFC 6749 3.3 lets the server narrow or ignore what it
// does not know; MCP authorization 2025-11-25, "Scope Selection Strategy": a client without a
// scope in the 401 asks for scopes_supported, or for nothing). Their use at /mcp is
// test/integration/mcp/scopes.test.ts.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  codeOf,
  connectApp,
  exchangeCode,
  pkcePair,
  registerClient,
  requestIdOf,
  tokenRequest,
} from '../../support/oauth';

let host: TestHost;
let token: string;
beforeAll(async () => {
  host = await startTestHost();
  ({ token } = await host.registerAndLogin());
});
afterAll(() => host?.close());

const BOTH = 'summaries:read summaries:write';

/** The claims of a JWT, unverified. */
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());

describe('an authorization request’s scope', () => {
  it.each([
    ['summaries:read', 'summaries:read'],
    ['summaries:write', 'summaries:write'],
    ['summaries:write summaries:read', BOTH],
    ['openid summaries:read offline_access', 'summaries:read'],
    [undefined, BOTH],
    ['claudeai', BOTH],
  ])(
    'asked as %j, grants %j: on the consent screen, in the token answer and in the token',
    async (asked, granted) => {
      const clientId = await registerClient(host);
      const { verifier, challenge } = pkcePair();
      const id = requestIdOf(
        await authorizeRequest(
          host,
          authorizationParams(host, clientId, challenge, { scope: asked }),
        ),
      );

      const shown = await host.request('GET', `/oauth/requests/${id}`, { token });
      const code = codeOf(await answer(host, id, token, 'allow'));
      const tokens = await exchangeCode(host, clientId, code, verifier);

      expect(shown.status).toBe(200);
      const scopes = shown.body.scopes as { scope: string; description: string }[];
      expect(scopes.map((scope) => scope.scope).join(' ')).toBe(granted);
      for (const scope of scopes) expect(scope.description.length).toBeGreaterThan(20);
      expect(tokens.status).toBe(200);
      expect(tokens.body.scope).toBe(granted);
      expect(claimsOf(tokens.body.access_token).scope).toBe(granted);
    },
  );

  it('says on the consent screen what each scope allows', async () => {
    const clientId = await registerClient(host);
    const { challenge } = pkcePair();
    const id = requestIdOf(
      await authorizeRequest(host, authorizationParams(host, clientId, challenge)),
    );

    const shown = await host.request('GET', `/oauth/requests/${id}`, { token });

    expect(shown.body.scopes).toEqual([
      { scope: 'summaries:read', description: expect.stringMatching(/summaries.*transcripts/) },
      { scope: 'summaries:write', description: expect.stringMatching(/^Summarise videos/) },
    ]);
  });
});

describe('a grant’s scope', () => {
  it('is kept by a refresh, even one that asks for more', async () => {
    const app = await connectApp(host, token, { scope: 'summaries:read' });

    const refreshed = await tokenRequest(host, {
      grant_type: 'refresh_token',
      refresh_token: app.refresh,
      client_id: app.clientId,
      scope: BOTH,
    });

    expect(refreshed.status).toBe(200);
    expect(refreshed.body.scope).toBe('summaries:read');
    expect(claimsOf(refreshed.body.access_token).scope).toBe('summaries:read');
  });

  it('is what Connected apps says each app may do', async () => {
    const person = await host.registerAndLogin();
    const reader = await connectApp(host, person.token, { scope: 'summaries:read' }, 'Reader');
    const full = await connectApp(host, person.token, {}, 'Writer');

    const listed = await host.request('GET', '/connected-apps', { token: person.token });

    const scopeOf = (clientId: string) =>
      listed.body.items.find((item: { client_id: string }) => item.client_id === clientId)?.scope;
    expect(scopeOf(reader.clientId)).toBe('summaries:read');
    expect(scopeOf(full.clientId)).toBe(BOTH);
  });

  it('is every scope for a connection made before scopes, which has none stored', async () => {
    const app = await connectApp(host, token);
    const gid = claimsOf(app.access).gid;
    await host.db.send(
      new UpdateCommand({
        TableName: host.config.TABLE_NAME,
        Key: { pk: `OAUTHGRANT#${gid}` },
        UpdateExpression: 'REMOVE #scope',
        ExpressionAttributeNames: { '#scope': 'scope' },
      }),
    );

    const refreshed = await tokenRequest(host, {
      grant_type: 'refresh_token',
      refresh_token: app.refresh,
      client_id: app.clientId,
    });

    expect(refreshed.body.scope).toBe(BOTH);
    expect(claimsOf(refreshed.body.access_token).scope).toBe(BOTH);
  });
});
