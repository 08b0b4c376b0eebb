// Confidential clients at the token and revocation endpoints, over HTTP against the real local
// host (docs/SECURITY.md, "OAuth for /mcp"): claude.ai authenticates with client_secret_post
// (anthropics/claude-ai-mcp #1043, #667), the MCP SDK with client_secret_basic when it holds a
// secret; either by the method registered (RFC 6749 2.3.1), the Basic credentials form-urlencoded
// before base64 (RFC 6749 2.3.1 and Appendix B). A wrong or missing secret, or one sent by the other
// method, is 401 invalid_client with a Basic challenge (RFC 6749 5.2) and spends nothing; PKCE
// binds the codes of confidential clients as of public ones; a confidential client's token is
// revoked only with its secret (RFC 7009 2.1). The official SDK's own registration and token
// calls are run against it too.
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient as sdkRegisterClient,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  codeOf,
  listTools,
  pkcePair,
  REDIRECT_URI,
  requestIdOf,
} from '../../support/oauth';

interface Confidential {
  clientId: string;
  secret: string;
}

let host: TestHost;
let person: string;
let post: Confidential;
let basic: Confidential;
beforeAll(async () => {
  host = await startTestHost();
  person = (await host.registerAndLogin()).token;
  post = await registerConfidential('client_secret_post');
  basic = await registerConfidential('client_secret_basic');
});
afterAll(() => host?.close());

async function registerConfidential(method: string): Promise<Confidential> {
  const response = await host.request('POST', '/oauth/register', {
    json: {
      client_name: `Confidential (${method})`,
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: method,
    },
  });
  return { clientId: response.body.client_id, secret: response.body.client_secret };
}

/** RFC 6749 Appendix B: every character but letters and digits escaped, even "-" and "_". */
const formEncoded = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*~._-]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
/** `Authorization: Basic` as RFC 6749 2.3.1 says: each part form-urlencoded, then base64. */
const basicHeader = (clientId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(secret)}`).toString('base64')}`,
});

/** A code the person allowed for `clientId`, and its verifier. */
async function allowedCode(clientId: string): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const id = requestIdOf(
    await authorizeRequest(host, authorizationParams(host, clientId, challenge)),
  );
  return { code: codeOf(await answer(host, id, person, 'allow')), verifier };
}

/** POST /oauth/token for a code, with this client authentication (form fields and headers). */
const exchange = (
  { code, verifier }: { code: string; verifier: string },
  auth: { form?: Record<string, string>; headers?: Record<string, string> },
) =>
  host.request('POST', '/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      ...auth.form,
    },
    ...(auth.headers ? { headers: auth.headers } : {}),
  });

describe('a confidential client at the token endpoint', () => {
  it('gets tokens with its secret by its method, and refreshes with it', async () => {
    const byPost = await exchange(await allowedCode(post.clientId), {
      form: { client_id: post.clientId, client_secret: post.secret },
    });
    const byBasic = await exchange(await allowedCode(basic.clientId), {
      headers: basicHeader(basic.clientId, basic.secret),
    });
    const refreshed = await host.request('POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: byBasic.body.refresh_token },
      headers: basicHeader(basic.clientId, basic.secret),
    });

    for (const response of [byPost, byBasic, refreshed]) {
      expect(response.status, response.text).toBe(200);
      expect((await listTools(host, response.body.access_token)).status).toBe(200);
    }
  });

  /** How each client authenticates rightly. */
  const rightly = (client: Confidential) =>
    client === post
      ? { form: { client_id: post.clientId, client_secret: post.secret } }
      : { headers: basicHeader(basic.clientId, basic.secret) };

  it.each([
    [
      'a wrong secret (post)',
      'post',
      () => ({ form: { client_id: post.clientId, client_secret: basic.secret } }),
    ],
    ['no secret (post)', 'post', () => ({ form: { client_id: post.clientId } })],
    [
      'the secret in Basic (post)',
      'post',
      () => ({ headers: basicHeader(post.clientId, post.secret) }),
    ],
    [
      'a wrong secret (basic)',
      'basic',
      () => ({ headers: basicHeader(basic.clientId, post.secret) }),
    ],
    ['no secret (basic)', 'basic', () => ({ form: { client_id: basic.clientId } })],
    [
      'the secret in the form (basic)',
      'basic',
      () => ({ form: { client_id: basic.clientId, client_secret: basic.secret } }),
    ],
  ] as const)(
    'refuses %s with 401 invalid_client and a Basic challenge, and the code still works',
    async (_, which, auth) => {
      const client = which === 'post' ? post : basic;
      const code = await allowedCode(client.clientId);

      const refused = await exchange(code, auth());
      const afterwards = await exchange(code, rightly(client));

      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: 'invalid_client' });
      expect(refused.headers.get('www-authenticate')).toBe('Basic realm="tubesum"');
      expect(afterwards.status).toBe(200);
    },
  );

  it('refuses the client_id of a confidential client without its secret, whatever the code', async () => {
    const stolen = await allowedCode(basic.clientId);

    const asPublic = await exchange(stolen, { form: { client_id: basic.clientId } });

    expect(asPublic.status).toBe(401);
    expect(asPublic.body.error).toBe('invalid_client');
  });

  it('refuses two methods at once with invalid_request', async () => {
    const both = await exchange(await allowedCode(basic.clientId), {
      headers: basicHeader(basic.clientId, basic.secret),
      form: { client_secret: basic.secret },
    });

    expect(both.status).toBe(400);
    expect(both.body.error).toBe('invalid_request');
  });

  it('holds a confidential client to PKCE too', async () => {
    const { code } = await allowedCode(post.clientId);

    const wrong = await exchange(
      { code, verifier: pkcePair().verifier },
      { form: { client_id: post.clientId, client_secret: post.secret } },
    );

    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
  });
});

describe('a confidential client at the revocation endpoint', () => {
  const connected = async (client: Confidential) =>
    (
      await exchange(await allowedCode(client.clientId), {
        form: { client_id: client.clientId, client_secret: client.secret },
      })
    ).body as { access_token: string; refresh_token: string };

  it('revokes its token with its secret; without it, 401; unnamed, nothing is done', async () => {
    const tokens = await connected(post);
    const revoke = (form: Record<string, string>) =>
      host.request('POST', '/oauth/revoke', { form: { token: tokens.refresh_token, ...form } });

    const noSecret = await revoke({ client_id: post.clientId });
    const unnamed = await revoke({});
    const stillWorks = await listTools(host, tokens.access_token);
    const rightly = await revoke({ client_id: post.clientId, client_secret: post.secret });

    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    expect(noSecret.headers.get('www-authenticate')).toBe('Basic realm="tubesum"');
    expect(unnamed.status).toBe(200);
    expect(stillWorks.status).toBe(200);
    expect(rightly.status).toBe(200);
    expect((await listTools(host, tokens.access_token)).status).toBe(401);
  });
});

describe('the MCP SDK’s own client calls', () => {
  it('register a client_secret_basic client, exchange its code and refresh with Basic', async () => {
    const metadata = await discoverAuthorizationServerMetadata(host.url);
    if (!metadata) throw new Error('no metadata');
    const information = await sdkRegisterClient(host.url, {
      metadata,
      clientMetadata: {
        client_name: 'SDK confidential agent',
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    });
    const { code, verifier } = await allowedCode(information.client_id);

    const tokens = await exchangeAuthorization(host.url, {
      metadata,
      clientInformation: information,
      authorizationCode: code,
      codeVerifier: verifier,
      redirectUri: REDIRECT_URI,
      resource: new URL(`${host.url}/mcp`),
    });
    const refreshed = await refreshAuthorization(host.url, {
      metadata,
      clientInformation: information,
      refreshToken: tokens.refresh_token ?? '',
      resource: new URL(`${host.url}/mcp`),
    });

    expect(information).toMatchObject({
      client_secret: expect.stringMatching(/^tsc_/),
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect((await listTools(host, refreshed.access_token)).status).toBe(200);
  });
});
