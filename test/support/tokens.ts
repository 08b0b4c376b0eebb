// Hostile and broken tokens for the rows of SECURITY.md's "Tokens" table.
import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { keyIdOf, type TokenSettings } from '../../lib/accounts/auth/tokens';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** Token settings as the service derives them from a secret. */
export function settingsFor(secret: string, ttlSeconds = 1_800): TokenSettings {
  const bytes = new TextEncoder().encode(secret);
  return {
    secret: bytes,
    keyId: keyIdOf(bytes),
    issuer: 'tubesum',
    audience: 'tubesum-api',
    ttlSeconds,
  };
}

/** Signs arbitrary claims and header fields with HS256 (or `alg`) and the given key. */
export async function sign(
  settings: TokenSettings,
  claims: JWTPayload,
  header: Record<string, unknown> = {},
  key: Parameters<SignJWT['sign']>[0] = settings.secret,
  alg = 'HS256',
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: 'JWT', kid: settings.keyId, ...header })
    .sign(key);
}

/** Claims of a valid token for `sub`. */
export function validClaims(settings: TokenSettings, sub: string): JWTPayload {
  const iat = now();
  return {
    sub,
    iat,
    exp: iat + 600,
    iss: settings.issuer,
    aud: settings.audience,
    jti: randomUUID(),
  };
}

function without(claims: JWTPayload, name: keyof JWTPayload): JWTPayload {
  const copy = { ...claims };
  delete copy[name];
  return copy;
}

/**
 * Every token the service must refuse, by case name. `jkuUrl` is a URL of a local server that
 * counts connections, to prove nothing is fetched from token headers.
 */
export async function forgedTokens(
  settings: TokenSettings,
  sub: string,
  jkuUrl: string,
): Promise<Record<string, string>> {
  const claims = validClaims(settings, sub);
  const valid = await sign(settings, claims);
  const [header, payload, signature] = valid.split('.') as [string, string, string];
  const rsa = await generateKeyPair('RS256');
  const ec = await generateKeyPair('ES256');
  const other = new TextEncoder().encode(randomBytes(48).toString('base64url'));
  const t = now();

  return {
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    'alg NoNe': `${b64({ alg: 'NoNe', typ: 'JWT' })}.${payload}.`,
    'alg NONE with the original signature': `${b64({ alg: 'NONE' })}.${payload}.${signature}`,
    'empty signature': `${header}.${payload}.`,
    'HS384 with the right secret': await sign(settings, claims, {}, settings.secret, 'HS384'),
    'HS512 with the right secret': await sign(settings, claims, {}, settings.secret, 'HS512'),
    'RS256 carrying its own jwk': await sign(
      settings,
      claims,
      { jwk: await exportJWK(rsa.publicKey) },
      rsa.privateKey,
      'RS256',
    ),
    'RS256 carrying a jku': await sign(settings, claims, { jku: jkuUrl }, rsa.privateKey, 'RS256'),
    'ES256 carrying an x5u': await sign(settings, claims, { x5u: jkuUrl }, ec.privateKey, 'ES256'),
    'unknown kid': await sign(settings, claims, { kid: 'other-key' }),
    'kid that is a path': await sign(settings, claims, { kid: '../../../../../dev/null' }),
    'kid that is SQL': await sign(settings, claims, { kid: "x' UNION SELECT 'secret" }),
    'kid of 8 KB': await sign(settings, claims, { kid: 'k'.repeat(8_192) }),
    'payload edited': `${header}.${b64({ ...claims, sub: randomUUID() })}.${signature}`,
    'signature truncated': `${header}.${payload}.${signature.slice(0, -6)}`,
    'signed with another secret': await sign(settings, claims, {}, other),
    'no exp': await sign(settings, without(claims, 'exp')),
    'no sub': await sign(settings, without(claims, 'sub')),
    'no iat': await sign(settings, without(claims, 'iat')),
    'wrong iss': await sign(settings, { ...claims, iss: 'someone-else' }),
    'wrong aud': await sign(settings, { ...claims, aud: 'another-api' }),
    'expired beyond the clock tolerance': await sign(settings, {
      ...claims,
      iat: t - 4_000,
      exp: t - 120,
    }),
    'nbf in the future': await sign(settings, { ...claims, nbf: t + 600 }),
    'iat in the future': await sign(settings, { ...claims, iat: t + 600, exp: t + 1_200 }),
    'not a JWT at all': 'definitely-not-a-token',
  };
}
