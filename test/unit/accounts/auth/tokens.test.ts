import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertStrongSecret,
  InvalidTokenError,
  issueToken,
  verifyToken,
} from '../../../../lib/accounts/auth/tokens';
import { ConfigError } from '../../../../lib/errors';
import { issueAccessToken } from '../../../../lib/oauth/tokens/access-tokens';
import { forgedTokens, settingsFor, sign, validClaims } from '../../../support/tokens';

const settings = settingsFor('unit-test-secret-0123456789-abcdefghijklmnop');
let connections = 0;
const jwks = createServer((_request, response) => {
  connections += 1;
  response.end('{}');
});
let jkuUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jkuUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
});
afterAll(() => new Promise<void>((resolve) => jwks.close(() => resolve())));

describe('verifyToken', () => {
  it('accepts a token it issued and returns its subject', async () => {
    const { token, expiresIn } = await issueToken(settings, 'user-1');

    await expect(verifyToken(settings, token)).resolves.toBe('user-1');
    expect(expiresIn).toBe(1_800);
  });

  it('issues HS256 tokens with sub, iat, exp, iss, aud, jti and a kid', async () => {
    const { token } = await issueToken(settings, 'user-1');
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));

    expect(header).toMatchObject({ alg: 'HS256', kid: settings.keyId });
    expect(payload).toMatchObject({ sub: 'user-1', iss: 'tubesum', aud: 'tubesum-api' });
    expect(payload.exp - payload.iat).toBe(1_800);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts a token expired by less than the clock tolerance', async () => {
    const t = Math.floor(Date.now() / 1000);
    const token = await sign(settings, {
      ...validClaims(settings, 'u'),
      iat: t - 100,
      exp: t - 10,
    });

    await expect(verifyToken(settings, token)).resolves.toBe('u');
  });

  it('refuses an OAuth access token (typ at+jwt) even where the audiences were set alike', async () => {
    // An operator who set JWT_ISSUER and JWT_AUDIENCE to the origin and its /mcp URL: the
    // token's typ still tells an /mcp access token from a login token.
    const alike = { ...settings, issuer: 'https://x.example', audience: 'https://x.example/mcp' };
    const { token } = await issueAccessToken(alike, alike.issuer, 3_600, {
      id: 'grant-1',
      userId: 'user-1',
      clientId: 'client-1',
    });

    await expect(verifyToken(alike, token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('refuses every forged or broken token and fetches nothing from token headers', async () => {
    const cases = await forgedTokens(settings, 'user-1', jkuUrl);

    for (const [name, token] of Object.entries(cases)) {
      await expect(verifyToken(settings, token), name).rejects.toBeInstanceOf(InvalidTokenError);
    }
    expect(Object.keys(cases).length).toBeGreaterThan(20);
    expect(connections).toBe(0);
  });
});

describe('assertStrongSecret', () => {
  it('refuses a secret shorter than 32 bytes, naming the variable', () => {
    expect(() => assertStrongSecret('short-secret', 'JWT_SECRET')).toThrow(ConfigError);
    expect(() => assertStrongSecret('x', 'JWT_SECRET')).toThrow(
      /JWT_SECRET must be at least 32 bytes/,
    );
  });

  it('refuses a long but repetitive secret', () => {
    expect(() => assertStrongSecret('ab'.repeat(32), 'JWT_SECRET')).toThrow(/repetitive/);
  });

  it('accepts 32 random-looking bytes', () => {
    expect(assertStrongSecret('Vq3xZ0pL9sT2wE7rY5uI1oP4aS6dF8gH', 'JWT_SECRET')).toHaveLength(32);
  });
});
