// The API key itself: `tsk_` and 32 random bytes in base64url (256 bits), stored only as its
// SHA-256. A fast hash is right here and bcrypt is not (docs/SECURITY.md, "API keys"): the key
// is random, not chosen by a person, so there is no dictionary to try and 2^256 guesses stay out
// of reach however fast each one is; bcrypt would cost ~100 ms of CPU on every request and reads
// only 72 bytes. The prefix tells keys from JWTs, and lets secret scanners find leaked keys.
import { createHash, randomBytes } from 'node:crypto';

/** What every key starts with (GitHub's and others' secret scanning can match it). */
export const API_KEY_PREFIX = 'tsk_';
/** Random bytes in a key: 256 bits. */
const KEY_BYTES = 32;
/** The whole form of a key: the prefix and 43 base64url characters (32 bytes, unpadded). */
export const API_KEY_PATTERN = /^tsk_[A-Za-z0-9_-]{43}$/;

/** A new key: shown to its owner once, never stored. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
}

/** The SHA-256 of a key, base64url: what the table stores and looks keys up by. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('base64url');
}

/**
 * Whether a bearer credential is meant as an API key (it has the prefix), whatever else it is:
 * such a credential is never tried as a JWT, and a malformed one gets the token's 401.
 */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

/** Whether a credential has the exact form of a key (one worth looking up). */
export function isWellFormedApiKey(credential: string): boolean {
  return API_KEY_PATTERN.test(credential);
}
