// How usernames and emails are normalised, validated and compared.
import * as z from '../../schema';

/** 3-32 characters of a small ASCII alphabet, starting and ending with a letter or digit. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,30}[A-Za-z0-9]$/;

/** The longest username and email, counted after normalisation (what is stored and looked up). */
export const USERNAME_MAX_CHARS = 32;
export const EMAIL_MAX_CHARS = 254;

/**
 * Emails as the OpenAPI document states them (`format: email` and this pattern), so that the
 * server accepts exactly what a client validating against the document accepts: dot-separated
 * atoms of a-z 0-9 _ ' + - before the @, then DNS labels (1-63 characters of letters, digits
 * and inner hyphens) and a top-level domain of 2-63 letters. Every address it accepts is one
 * that ajv-formats' `email` accepts too (test/integration/accounts/register.test.ts).
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9_'+-]+(?:\.[A-Za-z0-9_'+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * Usernames: NFKC-normalised (so fullwidth "ａｌｉｃｅ" is "alice"), then a small ASCII alphabet,
 * 3-32 characters, compared case-insensitively. Look-alike scripts, zero-width and control
 * characters and "@" never pass. The normalisation is an overwrite, not a transform, so the
 * pattern stays in the OpenAPI document.
 */
export const usernameSchema = z.string().check(
  z.maxLength(256),
  z.overwrite((value) => value.normalize('NFKC')),
  z.regex(USERNAME_PATTERN, {
    message:
      'Use 3-32 characters of a-z, 0-9, ".", "_" or "-", starting and ending with a letter or digit.',
  }),
  z.meta({
    description: 'Login name: 3-32 of a-z 0-9 . _ - (case-insensitive)',
    examples: ['alice'],
  }),
);

/**
 * Emails: at most 254 ASCII characters (so normalisation cannot grow them), EMAIL_PATTERN.
 * Not trimmed: an address with spaces around it is refused, as the document refuses it.
 */
export const emailSchema = z.string().check(
  z.maxLength(EMAIL_MAX_CHARS),
  z.email({
    pattern: EMAIL_PATTERN,
    message: 'Use a valid email address, such as alice@example.com.',
  }),
  z.meta({ description: 'Email address (case-insensitive)', examples: ['alice@example.com'] }),
);

/** The key that makes usernames unique case-insensitively. */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

/** The key that makes emails unique case-insensitively. */
export function emailKey(email: string): string {
  return email.trim().normalize('NFKC').toLowerCase();
}

/** Logins accept a username or an email; anything with "@" is an email. */
export function loginKey(identifier: string): { kind: 'email' | 'username'; key: string } {
  return identifier.includes('@')
    ? { kind: 'email', key: emailKey(identifier) }
    : { kind: 'username', key: usernameKey(identifier.trim()) };
}

/**
 * True when some account could have this key: no stored key is longer than the limits above.
 * Keys are bounded after normalisation because NFKC can grow a string eighteen-fold (U+FDFA),
 * and DynamoDB refuses keys over 2,048 bytes.
 */
export function isPossibleKey(kind: 'email' | 'username', key: string): boolean {
  return key.length <= (kind === 'email' ? EMAIL_MAX_CHARS : USERNAME_MAX_CHARS);
}

/** "a***@example.com": enough to tell accounts apart in a log, never the whole address. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
