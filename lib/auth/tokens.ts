// Access tokens: HS256 JWTs signed and verified with jose, with every check RFC 8725 asks for.
import { createHash, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { ConfigError } from '../config';

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

/** Signs an access token for a user id. */
export async function issueToken(settings: TokenSettings, userId: string): Promise<IssuedToken> {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: settings.keyId })
    .setSubject(userId)
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setIssuedAt()
    .setExpirationTime(`${settings.ttlSeconds}s`)
    .setJti(randomUUID())
    .sign(settings.secret);
  return { token, expiresIn: settings.ttlSeconds };
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
  if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('token too long');
  try {
    // algorithms pins HS256 (no alg:none, no HS512, no RS256 with an attacker's jwk/jku);
    // requiredClaims makes a token without exp/sub/iat/jti invalid instead of eternal.
    // The only key is ours: a token naming any other kid (a path, SQL, a URL) is refused
    // without being looked up anywhere.
    const keys = new Map([[settings.keyId, settings.secret]]);
    const { payload } = await jwtVerify(
      token,
      (header) => {
        const key = typeof header.kid === 'string' ? keys.get(header.kid) : undefined;
        if (!key) throw new InvalidTokenError('unknown kid');
        return key;
      },
      {
        algorithms: ['HS256'],
        issuer: settings.issuer,
        audience: settings.audience,
        requiredClaims: ['exp', 'sub', 'iat', 'jti'],
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
    return payload.sub;
  } catch (error) {
    if (error instanceof InvalidTokenError) throw error;
    throw new InvalidTokenError('verification failed', { cause: error });
  }
}
