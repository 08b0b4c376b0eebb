// The secrets of the OAuth flow: PKCE (RFC 7636, S256 only), authorization codes and refresh
// tokens. Codes and refresh tokens are random (256 bits) and stored only as their SHA-256, as API
// keys are (lib/accounts/api-keys/secret.ts says why a fast hash is right for random secrets).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An S256 challenge: the base64url SHA-256 of a verifier, 43 characters. */
export const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A verifier as RFC 7636 4.1 allows it: 43-128 unreserved characters. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;

/** What every refresh token starts with (secret scanners can match it, as `tsk_` for keys). */
export const REFRESH_TOKEN_PREFIX = 'tsr_';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');

/** Whether `verifier` is the one `challenge` was made from (S256), compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!CODE_VERIFIER_PATTERN.test(verifier) || !CODE_CHALLENGE_PATTERN.test(challenge))
    return false;
  return timingSafeEqual(Buffer.from(sha256(verifier)), Buffer.from(challenge));
}

/** A new authorization code: handed to the client once, stored as its hash. */
export const newAuthorizationCode = (): string => randomBytes(32).toString('base64url');

/** A new refresh token. */
export const newRefreshToken = (): string =>
  REFRESH_TOKEN_PREFIX + randomBytes(32).toString('base64url');

/** What the table stores of a code or refresh token, and finds it by. */
export const secretHash = (secret: string): string => sha256(secret);
