// Password policy and hashing with bcryptjs (pure JS, so it bundles into a Lambda).

import { brotliDecompressSync } from 'node:zlib';
import bcrypt from 'bcryptjs';
import type { FieldError } from '../../errors';
import { COMMON_PASSWORDS_BROTLI_BASE64 } from './common-passwords';
import {
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN_CHARS,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from './password-policy';

let common: Set<string> | undefined;
/** The common passwords, unpacked on first use (about a millisecond). */
function commonPasswords(): Set<string> {
  common ??= new Set(
    brotliDecompressSync(Buffer.from(COMMON_PASSWORDS_BROTLI_BASE64, 'base64'))
      .toString('utf8')
      .split('\n'),
  );
  return common;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): FieldError | undefined {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes > PASSWORD_MAX_BYTES) {
    return {
      field: 'password',
      message: `${PASSWORD_TOO_LONG} This one is ${bytes} bytes.`,
    };
  }
  if ([...password].length < PASSWORD_MIN_CHARS) {
    return { field: 'password', message: PASSWORD_TOO_SHORT };
  }
  if (commonPasswords().has(password.toLowerCase())) {
    return {
      field: 'password',
      message: 'This password is one of the most commonly used: choose another.',
    };
  }
  return undefined;
}

/** True when bcrypt would see the whole password (it silently ignores bytes after 72). */
export function fitsBcrypt(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;
}

/** Hashes a password that passed passwordProblem(). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(password, cost);
}

/** The cost a bcrypt hash was made with. */
export function hashCost(hash: string): number {
  return bcrypt.getRounds(hash);
}

/** Compares in constant work for the hash's cost; false for passwords bcrypt cannot see whole. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  // A real compare still runs for over-long passwords so that timing reveals nothing.
  const matches = await bcrypt.compare(password, hash);
  return matches && fitsBcrypt(password);
}

// Real hashes of random, discarded passwords, one per allowed cost. Unknown-user logins compare
// against the one of the current cost, so they take as long as a wrong password for a real user
// (bcryptjs returns at once for a malformed hash, and hashing one at cold start would cost a
// whole bcrypt round on the first request).
const DUMMY_HASHES: Readonly<Record<number, string>> = {
  10: '$2b$10$58VAE7HxA/VW/Je0THY.XO69wGVnbEca6CxdofxcfY9oVFrOTGLVW',
  11: '$2b$11$vqYp.5OwugITf0PcIctu.uKCVAKJZjoyDHtekcDfewGSPvCoeLecu',
  12: '$2b$12$5qMfcDTkHXgvmxx3JzfjOuBnnIJsD7yWiMJ.x7/BtWrIputS8I55S',
  13: '$2b$13$JzXVR0r/FpZaV/.ob9CqJ.piV2d6SQRFN7iEjAzhS6546Byk4CM7W',
  14: '$2b$14$bPewHpWOtfG.0LqsRy79qOtjEp16YBu7vGhlv5Fj5e65ErAjfr9IW',
  15: '$2b$15$eNnq8r4KLwsKLPR8zuNxpueemQDl/pCW5WNSolV8FrW.4H/Kg7h3i',
};

/**
 * A valid bcrypt hash of the given cost that no password matches in practice.
 * @throws RangeError for a cost outside 10-15.
 */
export function dummyHash(cost: number): string {
  const hash = DUMMY_HASHES[cost];
  if (hash === undefined) throw new RangeError(`no dummy hash for bcrypt cost ${cost}`);
  return hash;
}
