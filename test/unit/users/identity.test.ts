import { describe, expect, it } from 'vitest';
import {
  emailKey,
  loginKey,
  maskEmail,
  usernameKey,
  usernameSchema,
} from '../../../lib/users/identity';

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
