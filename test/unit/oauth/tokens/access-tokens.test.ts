// /mcp's access tokens (lib/oauth/tokens/access-tokens.ts): the grant's scope as the `scope`
// claim (RFC 9068 2.2.3), a token made before scopes read as every scope, and the clock
// tolerance it shares with login tokens (CLOCK_TOLERANCE_SECONDS, docs/oauth.md "Tokens and
// connections"): taken up to 30 s past `exp`, and no later.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLOCK_TOLERANCE_SECONDS,
  InvalidTokenError,
  issueToken,
  signJwt,
} from '../../../../lib/accounts/auth/tokens';
import { issueAccessToken, verifyAccessToken } from '../../../../lib/oauth/tokens/access-tokens';
import { settingsFor, sign, validClaims } from '../../../support/tokens';

const key = settingsFor('unit-test-secret-0123456789-abcdefghijklmnop');
const ORIGIN = 'https://tubesum.example.com';
const grant = { id: 'grant-1', userId: 'user-1', clientId: 'client-1' };

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());

afterEach(() => {
  vi.useRealTimers();
});

describe('an access token', () => {
  it('carries its grant’s scope as the scope claim, and says what it may do', async () => {
    const { token } = await issueAccessToken(key, ORIGIN, 3_600, {
      ...grant,
      scope: 'summaries:read',
    });

    expect(claimsOf(token)).toMatchObject({ scope: 'summaries:read', gid: 'grant-1' });
    await expect(verifyAccessToken(key, ORIGIN, token)).resolves.toEqual({
      userId: 'user-1',
      grantId: 'grant-1',
      scopes: ['summaries:read'],
    });
  });

  it('carries every scope for a grant made before scopes, and reads a token without the claim so', async () => {
    const { token: ofOldGrant } = await issueAccessToken(key, ORIGIN, 3_600, grant);
    const t = Math.floor(Date.now() / 1000);
    // What the service signed before scopes: no scope claim.
    const old = await sign(
      key,
      {
        ...validClaims({ ...key, issuer: ORIGIN, audience: `${ORIGIN}/mcp` }, 'user-1'),
        gid: 'grant-1',
        iat: t,
        exp: t + 600,
      },
      { typ: 'at+jwt' },
    );

    expect(claimsOf(ofOldGrant).scope).toBe('summaries:read summaries:write');
    expect((await verifyAccessToken(key, ORIGIN, old)).scopes).toEqual([
      'summaries:read',
      'summaries:write',
    ]);
  });

  it('is not a login token: one typed so is refused, though its audience is /mcp and it names a grant', async () => {
    // All an access token carries but its typ (JWT, a login token's, not at+jwt).
    const { token: loginTyped } = await signJwt(
      key,
      { typ: 'JWT', issuer: ORIGIN, audience: `${ORIGIN}/mcp`, ttlSeconds: 3_600 },
      'user-1',
      { client_id: 'client-1', gid: 'grant-1', scope: 'summaries:read' },
    );
    const { token: login } = await issueToken(key, 'user-1');

    await expect(verifyAccessToken(key, ORIGIN, loginTyped)).rejects.toBeInstanceOf(
      InvalidTokenError,
    );
    await expect(verifyAccessToken(key, ORIGIN, login)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('is taken up to 30 s past its expiry, and refused after', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T12:00:00Z'), toFake: ['Date'] });
    const { token } = await issueAccessToken(key, ORIGIN, 60, grant);

    vi.setSystemTime(new Date('2026-05-01T12:01:29Z'));
    const within = await verifyAccessToken(key, ORIGIN, token);
    vi.setSystemTime(new Date('2026-05-01T12:01:31Z'));
    const after = verifyAccessToken(key, ORIGIN, token);

    expect(CLOCK_TOLERANCE_SECONDS).toBe(30);
    expect(within.userId).toBe('user-1');
    await expect(after).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
