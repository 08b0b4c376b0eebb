// The token endpoint, the access tokens it gives and who takes them, over HTTP against the real
// local host (docs/SECURITY.md, "OAuth for /mcp"): codes work once, within 60 s, for their own
// client, redirect URI, verifier and resource; a second use ends what the first gave; refresh
// tokens rotate and a reused one ends the connection; access tokens are for /mcp only, and /mcp
// takes no other bearer but API keys; the person disconnects an app, or deletes the account, and
// its tokens are refused from the next request; a client revokes its own.
import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../lib/accounts/auth/tokens';
import { secretHash } from '../../../lib/oauth/authorize/secrets';
import { startTestHost, TEST_SECRET, type TestHost } from '../../support/host';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  type Connection,
  codeOf,
  connectApp,
  exchangeCode,
  listTools,
  pkcePair,
  REDIRECT_URI,
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

/** A code allowed for `clientId` with this challenge, not yet exchanged. */
async function allowedCode(clientId: string, challenge: string, person = token): Promise<string> {
  const id = requestIdOf(
    await authorizeRequest(host, authorizationParams(host, clientId, challenge)),
  );
  return codeOf(await answer(host, id, person, 'allow'));
}

const exchange = (clientId: string, code: string, verifier: string, more = {}) =>
  exchangeCode(host, clientId, code, verifier, more);

/**
 * POST /oauth/token to the same host reached by another name (`localhost`): tokens made there
 * would be for that name's /mcp. (fetch sends its own Host; undici's request sends this one.)
 * The answer's JSON; a 400 expected.
 */
async function tokenRequestElsewhere(
  form: Record<string, string>,
): Promise<Record<string, string>> {
  const answer = await request(`${host.url}/oauth/token`, {
    method: 'POST',
    headers: {
      host: `localhost:${new URL(host.url).port}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await answer.body.json()) as Record<string, string>;
  expect(answer.statusCode, JSON.stringify(body)).toBe(400);
  return body;
}

const refresh = (app: Pick<Connection, 'clientId'>, refreshToken: string) =>
  tokenRequest(host, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: app.clientId,
  });

describe('POST /oauth/token with a code', () => {
  it('gives a bearer access token for /mcp only, an hour at most, and a refresh token, uncached', async () => {
    const app = await connectApp(host, token);

    expect(app.tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(app.tokens.headers.get('cache-control')).toBe('no-store');
    const claims = JSON.parse(Buffer.from(app.access.split('.')[1] ?? '', 'base64url').toString());
    expect(claims.aud).toBe(`${host.url}/mcp`);
    expect(claims.iss).toBe(host.url);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(3600);
    expect(app.refresh).toMatch(/^tsr_/);
    expect((await listTools(host, app.access)).status).toBe(200);
  });

  it.each([
    // The last character changed, always (a verifier ending in A once came back as itself).
    [
      'a wrong code_verifier',
      (v: string) => ({ code_verifier: `${v.slice(0, -1)}${v.endsWith('A') ? 'B' : 'A'}` }),
    ],
    ['another client', () => ({ client_id: 'AAAAAAAAAAAAAAAAAAAAAA' })],
    ['another redirect_uri', () => ({ redirect_uri: 'http://127.0.0.1:5555/other' })],
  ])('refuses %s with invalid_grant, and the code then works no more', async (_, wrong) => {
    const clientId = await registerClient(host);
    const { verifier, challenge } = pkcePair();
    const code = await allowedCode(clientId, challenge);

    const refused = await exchange(clientId, code, verifier, wrong(verifier));
    const afterwards = await exchange(clientId, code, verifier);

    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(refused.body).toMatchObject({ error: 'invalid_grant' });
    expect(afterwards.body.error).toBe('invalid_grant');
  });

  it('refuses another resource with invalid_target, and a missing verifier with invalid_request', async () => {
    const clientId = await registerClient(host);
    const { verifier, challenge } = pkcePair();
    const code = await allowedCode(clientId, challenge);

    const otherResource = await exchange(clientId, code, verifier, {
      resource: 'https://other.example.com/mcp',
    });
    const noVerifier = await tokenRequest(host, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
    });
    const unsupported = await tokenRequest(host, { grant_type: 'password', client_id: clientId });
    const asJson = await host.request('POST', '/oauth/token', {
      json: { grant_type: 'authorization_code', code },
    });

    expect(otherResource.body.error).toBe('invalid_target');
    expect(noVerifier.body.error).toBe('invalid_request');
    expect(unsupported.body.error).toBe('unsupported_grant_type');
    expect(asJson.status).toBe(400);
    expect(asJson.body.error).toBe('invalid_request');
    // None of these spent the code.
    expect((await exchange(clientId, code, verifier)).status).toBe(200);
  });

  it('refuses a code used twice, and revokes what the first use gave', async () => {
    const app = await connectApp(host, token);

    const second = await exchange(app.clientId, app.code, app.verifier);

    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await listTools(host, app.access)).status).toBe(401);
    expect((await refresh(app, app.refresh)).body.error).toBe('invalid_grant');
  });

  it('refuses a code at another origin of the deployment than the one whose /mcp it was made for', async () => {
    const clientId = await registerClient(host);
    const { verifier, challenge } = pkcePair();
    const code = await allowedCode(clientId, challenge);
    const refused = await tokenRequestElsewhere({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
    });
    const afterwards = await exchange(clientId, code, verifier);

    expect(refused).toMatchObject({ error: 'invalid_grant' });
    expect(refused.error_description).toMatch(/another resource/);
    expect(afterwards.body.error).toBe('invalid_grant');
  });

  it('refuses a code older than 60 s', async () => {
    const clientId = await registerClient(host);
    const { verifier, challenge } = pkcePair();
    const code = await allowedCode(clientId, challenge);
    // As if 61 s had passed: the code's own expiry, which is what the endpoint checks.
    await host.db.send(
      new UpdateCommand({
        TableName: host.config.TABLE_NAME,
        Key: { pk: `OAUTHCODE#${secretHash(code)}` },
        UpdateExpression: 'SET codeExpiresAt = codeExpiresAt - :late',
        ExpressionAttributeValues: { ':late': 61_000 },
      }),
    );

    const late = await exchange(clientId, code, verifier);

    expect(late.body).toMatchObject({ error: 'invalid_grant' });
    expect(late.body.error_description).toMatch(/expired/);
  });
});

describe('POST /oauth/token with a refresh token', () => {
  it('rotates it: the answer holds a new one, and the old one, used again, ends the connection', async () => {
    const app = await connectApp(host, token);

    const first = await refresh(app, app.refresh);
    const reused = await refresh(app, app.refresh);

    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(app.refresh);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    // Ended: the newest tokens too.
    expect((await listTools(host, first.body.access_token)).status).toBe(401);
    expect((await refresh(app, first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('keeps a registered client as long as its connection: each refresh extends both', async () => {
    const app = await connectApp(host, token);
    const clientKey = { pk: `OAUTHCLIENT#${app.clientId}` };
    // As if the connection had been refreshed for weeks: the registration about to expire.
    const soon = Date.now() + 2_000;
    await host.db.send(
      new UpdateCommand({
        TableName: host.config.TABLE_NAME,
        Key: clientKey,
        UpdateExpression: 'SET clientExpiresAt = :soon',
        ExpressionAttributeValues: { ':soon': soon },
      }),
    );

    const refreshed = await refresh(app, app.refresh);
    const { Item } = await host.db.send(
      new GetCommand({ TableName: host.config.TABLE_NAME, Key: clientKey, ConsistentRead: true }),
    );

    expect(refreshed.status).toBe(200);
    const day = 86_400_000;
    expect(Item?.clientExpiresAt).toBeGreaterThan(soon + 29 * day);
    expect(Item?.expiresAt).toBeGreaterThanOrEqual(Math.ceil(Item?.clientExpiresAt / 1000));
  });

  it('refuses a refresh token at another origin of the deployment, without ending its connection', async () => {
    const app = await connectApp(host, token);

    const refused = await tokenRequestElsewhere({
      grant_type: 'refresh_token',
      refresh_token: app.refresh,
      client_id: app.clientId,
    });

    expect(refused).toMatchObject({ error: 'invalid_grant' });
    expect(refused.error_description).toMatch(/another resource/);
    expect((await refresh(app, app.refresh)).status).toBe(200);
  });

  it('refuses another client’s refresh token without ending its connection', async () => {
    const app = await connectApp(host, token);

    const stolen = await refresh({ clientId: 'AAAAAAAAAAAAAAAAAAAAAA' }, app.refresh);

    expect(stolen.body.error).toBe('invalid_grant');
    expect((await refresh(app, app.refresh)).status).toBe(200);
  });
});

describe('what is stored', () => {
  it('gives codes, pending requests, clients, grants and refresh tokens TTLs, and keeps no secret', async () => {
    const person = await host.registerAndLogin();
    const app = await connectApp(host, person.token);
    const { challenge } = pkcePair();
    await authorizeRequest(host, authorizationParams(host, app.clientId, challenge));
    const { Items = [] } = await host.db.send(
      new ScanCommand({ TableName: host.config.TABLE_NAME, ConsistentRead: true }),
    );
    const now = Date.now() / 1000;
    const ttlOf = (prefix: string) =>
      Items.filter((item) => String(item.pk).startsWith(prefix)).map(
        (item) => Number(item.expiresAt) - now,
      );
    const day = 86_400;

    for (const left of ttlOf('OAUTHREQ#')) expect(left).toBeLessThanOrEqual(600 + 5);
    for (const left of ttlOf('OAUTHCODE#')) expect(left).toBeLessThanOrEqual(3_600 + 5);
    for (const prefix of ['OAUTHGRANT#', 'OAUTHREFRESH#', 'OAUTHCLIENT#']) {
      const lefts = ttlOf(prefix);
      expect(lefts.length, prefix).toBeGreaterThan(0);
      for (const left of lefts) expect(left, prefix).toBeLessThanOrEqual(30 * day + 5);
      for (const left of lefts) expect(left, prefix).toBeGreaterThan(0);
    }
    // Codes and refresh tokens are kept as hashes only.
    const stored = JSON.stringify(Items);
    expect(stored).not.toContain(app.code);
    expect(stored).not.toContain(app.refresh);
  });
});

describe('audience', () => {
  it('answers an /mcp access token with 401 on every REST route', async () => {
    const app = await connectApp(host, token);

    for (const [method, path] of [
      ['GET', '/summaries'],
      ['GET', '/api-keys'],
      ['GET', '/connected-apps'],
      ['POST', '/summarize'],
    ] as const) {
      const response = await host.request(method, path, {
        token: app.access,
        ...(method === 'POST' ? { json: { video_url: 'dQw4w9WgXcQ' } } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it('answers a login token, or a token of ours for another resource, with 401 at /mcp', async () => {
    const { userId, grantId } = await (async () => {
      const app = await connectApp(host, token);
      const claims = JSON.parse(
        Buffer.from(app.access.split('.')[1] ?? '', 'base64url').toString(),
      );
      return { userId: claims.sub as string, grantId: claims.gid as string };
    })();
    const secret = new TextEncoder().encode(TEST_SECRET);
    const forOther = await new SignJWT({ gid: grantId })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: keyIdOf(secret) })
      .setSubject(userId)
      .setIssuer(host.url)
      .setAudience('https://other.example.com/mcp')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti('x')
      .sign(secret);

    const login = await listTools(host, token);
    const other = await listTools(host, forOther);

    for (const response of [login, other]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
    }
  });

  it('keeps API keys working at /mcp beside OAuth', async () => {
    const key = (await host.request('POST', '/api-keys', { json: { name: 'agent' }, token })).body
      .key;
    await connectApp(host, token);

    expect((await listTools(host, key)).status).toBe(200);
    expect((await host.request('GET', '/summaries', { token: key })).status).toBe(200);
  });
});

describe('ending a connection', () => {
  it('lists connected apps, and Disconnect refuses their tokens from the next request', async () => {
    const app = await connectApp(host, token);
    expect((await listTools(host, app.access)).status).toBe(200);
    const listed = await host.request('GET', '/connected-apps', { token });
    const mine = listed.body.items.find(
      (item: { client_id: string }) => item.client_id === app.clientId,
    );

    const disconnected = await host.request('DELETE', `/connected-apps/${mine.id}`, { token });

    expect(mine).toMatchObject({ client_name: 'Test agent', connected_at: expect.any(String) });
    expect(mine.last_used_at).not.toBeNull();
    expect(disconnected.status).toBe(204);
    expect((await listTools(host, app.access)).status).toBe(401);
    expect((await refresh(app, app.refresh)).body.error).toBe('invalid_grant');
    const after = await host.request('GET', '/connected-apps', { token });
    expect(after.body.items.map((item: { id: string }) => item.id)).not.toContain(mine.id);
  });

  it('answers Disconnect of another person’s app with 404, and leaves it connected', async () => {
    const theirs = await host.registerAndLogin();
    const app = await connectApp(host, theirs.token);
    const listed = await host.request('GET', '/connected-apps', { token: theirs.token });

    const refused = await host.request('DELETE', `/connected-apps/${listed.body.items[0].id}`, {
      token,
    });

    expect(refused.status).toBe(404);
    expect((await listTools(host, app.access)).status).toBe(200);
  });

  it('revokes a client’s refresh or access token (RFC 7009), answering 200 for unknown ones too', async () => {
    const first = await connectApp(host, token);
    const second = await connectApp(host, token);

    const byRefresh = await host.request('POST', '/oauth/revoke', {
      form: { token: first.refresh, client_id: first.clientId },
    });
    const byAccess = await host.request('POST', '/oauth/revoke', {
      form: { token: second.access, client_id: second.clientId },
    });
    const unknown = await host.request('POST', '/oauth/revoke', {
      form: { token: 'tsr_nothing', client_id: first.clientId },
    });

    for (const response of [byRefresh, byAccess, unknown]) expect(response.status).toBe(200);
    expect((await listTools(host, first.access)).status).toBe(401);
    expect((await listTools(host, second.access)).status).toBe(401);
  });

  it('ends every connection when the account is deleted', async () => {
    const person = await host.registerAndLogin();
    const apps = [await connectApp(host, person.token), await connectApp(host, person.token)];
    const { verifier, challenge } = pkcePair();
    const clientId = await registerClient(host);
    const unexchanged = await allowedCode(clientId, challenge, person.token);

    const deleted = await host.request('DELETE', '/account', {
      token: person.token,
      json: { password: person.user.password },
    });

    expect(deleted.status).toBe(204);
    for (const app of apps) {
      expect((await listTools(host, app.access)).status).toBe(401);
      expect((await refresh(app, app.refresh)).body.error).toBe('invalid_grant');
    }
    // A code the person allowed just before gives nothing once the account is gone.
    expect((await exchange(clientId, unexchanged, verifier)).body.error).toBe('invalid_grant');
  });
});
