// Access tokens: HS256 JWTs signed and verified with jose, with every check RFC 8725 asks for.
import { createHash, randomUUID } from 'node:crypto';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { ConfigError } from '../../errors';

/** Leeway for clocks that disagree a little between machines. */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** Tokens longer than this are refused before any parsing. */
const MAX_TOKEN_LENGTH = 4_096;
const MIN_SECRET_BYTES = 32;

/**
 * Checks that a signing secret is long and varied enough.
 * @throws ConfigError naming the problem (never the secret).
 */
export function assertStrongSecret(secret: string, source: string): Uint8Array {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `${source} must be at least ${MIN_SECRET_BYTES} bytes (it has ${bytes.length}); generate one with: openssl rand -base64 48`,
    );
  }
  if (new Set(secret).size < 8) {
    throw new ConfigError(`${source} is too repetitive to be a secret; use random bytes`);
  }
  return bytes;
}

export interface TokenSettings {
  secret: Uint8Array;
  /** Names the key in the token header; other kids are refused (no lookup by kid). */
  keyId: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

/** A stable, non-secret name for a key: the start of its SHA-256. */
export function keyIdOf(secret: Uint8Array): string {
  return createHash('sha256').update(secret).digest('base64url').slice(0, 12);
}

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

/** What a JWT of ours is signed with and checked against (login tokens, OAuth access tokens). */
export interface JwtProfile {
  /** The `typ` header: `JWT` for login tokens, `at+jwt` for OAuth access tokens (RFC 9068). */
  typ: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

/** Signs a JWT of `profile` for a user id, with `claims` beside the registered ones. */
export async function signJwt(
  key: Pick<TokenSettings, 'secret' | 'keyId'>,
  profile: JwtProfile,
  userId: string,
  claims: Record<string, string> = {},
): Promise<IssuedToken> {
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: profile.typ, kid: key.keyId })
    .setSubject(userId)
    .setIssuer(profile.issuer)
    .setAudience(profile.audience)
    .setIssuedAt()
    .setExpirationTime(`${profile.ttlSeconds}s`)
    .setJti(randomUUID())
    .sign(key.secret);
  return { token, expiresIn: profile.ttlSeconds };
}

/** The `typ` of a login token (an OAuth access token for /mcp is `at+jwt`). */
const LOGIN_TOKEN_TYPE = 'JWT';

/** Signs an access token for a user id. */
export async function issueToken(settings: TokenSettings, userId: string): Promise<IssuedToken> {
  return signJwt(settings, { typ: LOGIN_TOKEN_TYPE, ...settings }, userId);
}

/** Thrown for any token that must not be trusted; callers answer one uniform 401. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/**
 * Verifies a token and returns its subject (the user id).
 * @throws InvalidTokenError for anything but a well-formed, unexpired HS256 token of ours.
 */
export async function verifyToken(settings: TokenSettings, token: string): Promise<string> {
  // Its typ too: an /mcp access token is refused even where JWT_ISSUER and JWT_AUDIENCE were set
  // to the origin and its /mcp URL.
  const payload = await verifyJwt(settings, token, { ...settings, typ: LOGIN_TOKEN_TYPE });
  return payload.sub as string;
}

/**
 * Verifies a JWT of ours against `expected` (its issuer and audience; its `typ` when given, and
 * claims it must carry besides exp, sub, iat and jti) and returns its payload.
 * @throws InvalidTokenError for anything else.
 */
export async function verifyJwt(
  key: Pick<TokenSettings, 'secret' | 'keyId'>,
  token: string,
  expected: { issuer: string; audience: string; typ?: string; claims?: readonly string[] },
): Promise<JWTPayload> {
  if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('token too long');
  try {
    // algorithms pins HS256 (no alg:none, no HS512, no RS256 with an attacker's jwk/jku);
    // requiredClaims makes a token without exp/sub/iat/jti invalid instead of eternal.
    // The only key is ours: a token naming any other kid (a path, SQL, a URL) is refused
    // without being looked up anywhere.
    const keys = new Map([[key.keyId, key.secret]]);
    const { payload } = await jwtVerify(
      token,
      (header) => {
        const found = typeof header.kid === 'string' ? keys.get(header.kid) : undefined;
        if (!found) throw new InvalidTokenError('unknown kid');
        return found;
      },
      {
        algorithms: ['HS256'],
        issuer: expected.issuer,
        audience: expected.audience,
        ...(expected.typ === undefined ? {} : { typ: expected.typ }),
        requiredClaims: ['exp', 'sub', 'iat', 'jti', ...(expected.claims ?? [])],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      },
    );
    const now = Math.floor(Date.now() / 1000);
    // jose does not reject an iat in the future; a token from the future is forged or broken.
    if (typeof payload.iat !== 'number' || payload.iat > now + CLOCK_TOLERANCE_SECONDS) {
      throw new InvalidTokenError('iat in the future');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw new InvalidTokenError('no subject');
    }
    return payload;
  } catch (error) {
    if (error instanceof InvalidTokenError) throw error;
    throw new InvalidTokenError('verification failed', { cause: error });
  }
}
