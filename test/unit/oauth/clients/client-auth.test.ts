// Client authentication at the token and revocation endpoints (RFC 6749 2.3.1 and 5.2, RFC 7009
// 2.1), with the stored clients faked: a confidential client by its secret and the method it
// registered (claude.ai sends client_secret_post, anthropics/claude-ai-mcp #1043 and #667; the
// MCP SDK sends Basic when it has a secret); Basic's id and secret form-urlencoded before base64
// (RFC 6749 2.3.1, Appendix B), and taken also as the SDK's btoa sends them, unencoded.
import { describe, expect, it } from 'vitest';
import { secretHash } from '../../../../lib/oauth/authorize/secrets';
import {
  authenticateClient,
  basicCredentials,
  newClientSecret,
  presentedClient,
  secretMatches,
} from '../../../../lib/oauth/clients/client-auth';
import type { RegisteredClient } from '../../../../lib/oauth/clients/clients';
import type { TokenEndpointAuthMethod } from '../../../../lib/oauth/clients/metadata';
import { OAuthError } from '../../../../lib/oauth/errors';

/** RFC 6749 Appendix B: application/x-www-form-urlencoded, every reserved character escaped. */
const formEncoded = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*~._-]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const basic = (id: string, secret: string, encode = true) =>
  `Basic ${Buffer.from(encode ? `${formEncoded(id)}:${formEncoded(secret)}` : `${id}:${secret}`).toString('base64')}`;

const POST_ID = 'postPostPostPostPost_1';
const BASIC_ID = 'basicBasicBasicBasic-2';
const PUBLIC_ID = 'publicPublicPublicPub3';
const SECRET = newClientSecret();

const client = (clientId: string, method: TokenEndpointAuthMethod): RegisteredClient => ({
  clientId,
  clientName: 'An app',
  redirectUris: ['https://app.example/cb'],
  tokenEndpointAuthMethod: method,
  ...(method === 'none' ? {} : { secretHash: secretHash(SECRET) }),
  createdAt: 0,
});
const clients = {
  get: async (id: string) =>
    ({
      [POST_ID]: client(POST_ID, 'client_secret_post'),
      [BASIC_ID]: client(BASIC_ID, 'client_secret_basic'),
      [PUBLIC_ID]: client(PUBLIC_ID, 'none'),
    })[id],
};

const authenticate = (authorization: string | undefined, form: Record<string, string> = {}) =>
  authenticateClient(clients, presentedClient(authorization, form), Date.now());

/** The OAuth error a promise or call fails with. */
async function failure(run: () => unknown): Promise<OAuthError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('it did not fail');
}

describe('the Basic header', () => {
  it('decodes the id and secret after base64: "+" is a space, %XX a byte, ":" inside encoded', async () => {
    const header = basic('id:with+plus é', 's=cr%t:+~');

    expect(basicCredentials(header)).toEqual({ clientId: 'id:with+plus é', secret: 's=cr%t:+~' });
    expect(basicCredentials(`Basic ${Buffer.from('a+b:c+d').toString('base64')}`)).toEqual({
      clientId: 'a b',
      secret: 'c d',
    });
  });

  it('takes our ids and secrets unencoded too (the MCP SDK’s btoa): they are unreserved characters', () => {
    expect(basicCredentials(basic(BASIC_ID, SECRET, false))).toEqual({
      clientId: BASIC_ID,
      secret: SECRET,
    });
    expect(basicCredentials(basic(BASIC_ID, SECRET))).toEqual({
      clientId: BASIC_ID,
      secret: SECRET,
    });
  });

  it('is no client authentication in another scheme, and invalid_client when malformed', async () => {
    expect(basicCredentials('Bearer abc')).toBeUndefined();
    for (const header of [
      'Basic',
      'Basic !!!',
      'Basic a b',
      `Basic ${Buffer.from('no colon').toString('base64')}`,
      `Basic ${Buffer.from(':secret').toString('base64')}`,
      `Basic ${Buffer.from('id:%zz').toString('base64')}`,
    ]) {
      const error = await failure(() => basicCredentials(header));
      expect(error.code, header).toBe('invalid_client');
      expect(error.status).toBe(401);
      expect(error.headers['WWW-Authenticate']).toBe('Basic realm="tubesum"');
    }
  });
});

describe('which client a request names', () => {
  it('is the header’s with Basic, the form’s otherwise', () => {
    expect(presentedClient(basic(BASIC_ID, 's'), {})).toEqual({
      clientId: BASIC_ID,
      secret: 's',
      method: 'client_secret_basic',
    });
    expect(presentedClient(undefined, { client_id: POST_ID, client_secret: 's' })).toEqual({
      clientId: POST_ID,
      secret: 's',
      method: 'client_secret_post',
    });
    expect(presentedClient('Bearer x', { client_id: PUBLIC_ID, client_secret: '' })).toEqual({
      clientId: PUBLIC_ID,
      secret: undefined,
      method: 'none',
    });
  });

  it('refuses two methods at once, another client_id beside the header’s, a secret alone', async () => {
    const both = await failure(() =>
      presentedClient(basic(BASIC_ID, 's'), { client_id: BASIC_ID, client_secret: 's' }),
    );
    const other = await failure(() =>
      presentedClient(basic(BASIC_ID, 's'), { client_id: POST_ID }),
    );
    const alone = await failure(() => presentedClient(undefined, { client_secret: 's' }));

    for (const error of [both, other, alone]) expect(error.code).toBe('invalid_request');
  });
});

describe('authenticating a client', () => {
  it('takes a confidential client with its secret by the method it registered', async () => {
    await expect(
      authenticate(undefined, { client_id: POST_ID, client_secret: SECRET }),
    ).resolves.toEqual({ clientId: POST_ID, confidential: true });
    await expect(authenticate(basic(BASIC_ID, SECRET))).resolves.toEqual({
      clientId: BASIC_ID,
      confidential: true,
    });
  });

  it('takes a public client, a metadata document’s, an unknown one, or none, by its client_id alone', async () => {
    for (const clientId of [
      PUBLIC_ID,
      'https://app.example/client.json',
      'AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      await expect(authenticate(undefined, { client_id: clientId })).resolves.toEqual({
        clientId,
        confidential: false,
      });
    }
    await expect(authenticate(undefined)).resolves.toEqual({
      clientId: undefined,
      confidential: false,
    });
  });

  it.each([
    ['a wrong secret (post)', undefined, { client_id: POST_ID, client_secret: newClientSecret() }],
    ['a wrong secret (basic)', basic(BASIC_ID, newClientSecret()), {}],
    ['no secret (post)', undefined, { client_id: POST_ID }],
    ['no secret (basic)', undefined, { client_id: BASIC_ID }],
    ['a post client’s secret in Basic', basic(POST_ID, SECRET), {}],
    [
      'a basic client’s secret in the form',
      undefined,
      { client_id: BASIC_ID, client_secret: SECRET },
    ],
    ['a secret for a public client', undefined, { client_id: PUBLIC_ID, client_secret: SECRET }],
    ['a secret for an unknown client', basic('AAAAAAAAAAAAAAAAAAAAAA', SECRET), {}],
    ['an empty secret in Basic', basic(BASIC_ID, ''), {}],
  ])('refuses %s: 401 invalid_client with a Basic challenge', async (_, header, form) => {
    const error = await failure(() => authenticate(header, form));

    expect(error.code).toBe('invalid_client');
    expect(error.status).toBe(401);
    expect(error.headers).toEqual({ 'WWW-Authenticate': 'Basic realm="tubesum"' });
  });

  it('says the same for a wrong secret and for an unknown client', async () => {
    const wrong = await failure(() => authenticate(basic(BASIC_ID, 'tsc_wrong')));
    const unknown = await failure(() => authenticate(basic('AAAAAAAAAAAAAAAAAAAAAA', SECRET)));

    expect(wrong.message).toBe(unknown.message);
  });
});

describe('client secrets', () => {
  it('are 256 random bits with a prefix, and match only their own hash', () => {
    const secret = newClientSecret();

    expect(secret).toMatch(/^tsc_[A-Za-z0-9_-]{43}$/);
    expect(secretMatches(secret, secretHash(secret))).toBe(true);
    expect(secretMatches(newClientSecret(), secretHash(secret))).toBe(false);
    expect(secretMatches(secret, 'short')).toBe(false);
  });
});
