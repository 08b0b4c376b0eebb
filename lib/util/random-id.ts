// Ids of the things users name in paths (summary jobs, API keys): random, never sequential, so
// that knowing one tells nothing about another.
import { randomBytes } from 'node:crypto';

/** 22 URL-safe characters: what randomId() makes. Anything else names nothing. */
export const RANDOM_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A new id: 128 random bits, base64url. */
export function randomId(): string {
  return randomBytes(16).toString('base64url');
}
