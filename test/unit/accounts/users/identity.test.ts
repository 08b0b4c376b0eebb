import { describe, expect, it } from 'vitest';
import {
  EMAIL_MAX_CHARS,
  emailKey,
  emailSchema,
  isPossibleKey,
  loginKey,
  maskEmail,
  USERNAME_MAX_CHARS,
  usernameKey,
  usernameSchema,
} from '../../../../lib/accounts/users/identity';

describe('usernameSchema', () => {
  it.each(['alice', 'Alice_99', 'a.b-c', 'ａｌｉｃｅ'])('accepts %s', (name) => {
    expect(usernameSchema.safeParse(name).success).toBe(true);
  });

  it.each([
    'al',
    '\u0430lice',
    'al\u200bice',
    'al\u0000ice',
    'al@ice',
    '_alice',
    'alice.',
    'a'.repeat(33),
  ])('refuses %j', (name) => {
    expect(usernameSchema.safeParse(name).success).toBe(false);
  });

  it('normalises fullwidth letters with NFKC', () => {
    expect(usernameSchema.parse('ａｌｉｃｅ')).toBe('alice');
  });
});

describe('keys', () => {
  it('compare usernames and emails case-insensitively', () => {
    expect(usernameKey('ALICE')).toBe(usernameKey('alice'));
    expect(emailKey(' Alice@Example.COM ')).toBe('alice@example.com');
  });

  it('read an identifier with @ as an email', () => {
    expect(loginKey('Alice@Example.com')).toEqual({ kind: 'email', key: 'alice@example.com' });
    expect(loginKey('Alice')).toEqual({ kind: 'username', key: 'alice' });
  });

  it('mask emails for logs', () => {
    expect(maskEmail('alice@example.com')).toBe('a***@example.com');
    expect(maskEmail('nonsense')).toBe('***');
  });
});

describe('emailSchema', () => {
  it.each([
    'alice@example.com',
    "o'brien+tag@mail.example.co.uk",
    'a_b-c.d@x-y.example.org',
    `a@${'b'.repeat(63)}.io`,
  ])('accepts %s', (email) => {
    expect(emailSchema.safeParse(email).success).toBe(true);
  });

  it.each([
    'a@b-.com',
    'a@-b.com',
    'a@b..com',
    '.a@b.com',
    'a.@b.com',
    'a..b@c.com',
    'a@b.c',
    'a@b_c.com',
    'a@localhost',
    'a@127.0.0.1',
    'ü@b.com',
    ' a@b.com',
    'a@b.com ',
    `a@${'b'.repeat(64)}.io`,
    `${'a'.repeat(EMAIL_MAX_CHARS - 4)}@b.io`,
  ])('refuses %j', (email) => {
    expect(emailSchema.safeParse(email).success).toBe(false);
  });
});

describe('isPossibleKey', () => {
  it('bounds keys after normalisation, where NFKC may have grown them', () => {
    const grown = loginKey('\uFDFA'.repeat(2));

    expect(grown.key.length).toBe(36);
    expect(isPossibleKey(grown.kind, grown.key)).toBe(false);
    expect(isPossibleKey('username', 'a'.repeat(USERNAME_MAX_CHARS))).toBe(true);
    expect(isPossibleKey('email', 'a'.repeat(EMAIL_MAX_CHARS))).toBe(true);
    expect(isPossibleKey('email', 'a'.repeat(EMAIL_MAX_CHARS + 1))).toBe(false);
  });
});
