// The API key's form: a recognisable prefix and 256 random bits, stored as a SHA-256.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  looksLikeApiKey,
} from '../../../../lib/accounts/api-keys/secret';

describe('generateApiKey', () => {
  it('makes tsk_ and 43 base64url characters: 32 random bytes', () => {
    const key = generateApiKey();

    expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
  });

  it('never makes the same key twice, and uses every bit', () => {
    const keys = Array.from({ length: 2_000 }, generateApiKey);
    // Every bit of the 32 bytes is set in some key and clear in another: nothing is fixed.
    const ored = Buffer.alloc(32);
    const anded = Buffer.alloc(32, 0xff);
    for (const key of keys) {
      const bytes = Buffer.from(key.slice(4), 'base64url');
      for (let i = 0; i < 32; i++) {
        ored[i] = (ored[i] ?? 0) | (bytes[i] ?? 0);
        anded[i] = (anded[i] ?? 0) & (bytes[i] ?? 0);
      }
    }

    expect(new Set(keys).size).toBe(keys.length);
    expect(ored.equals(Buffer.alloc(32, 0xff))).toBe(true);
    expect(anded.equals(Buffer.alloc(32))).toBe(true);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 of the whole key, base64url', () => {
    const key = 'tsk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('base64url'));
    // A known vector, so that a change of algorithm or encoding cannot pass unnoticed.
    expect(hashApiKey('tsk_')).toBe('0ZsBlhMzS1SET6KhGPXR66jUkJ4pm35yHuORN-Ovdg8');
  });

  it('differs for keys one character apart', () => {
    const key = generateApiKey();
    const other = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');

    expect(hashApiKey(key)).not.toBe(hashApiKey(other));
  });
});

describe('telling keys from other credentials', () => {
  it('takes the prefix as meaning a key, whatever follows', () => {
    expect(looksLikeApiKey(generateApiKey())).toBe(true);
    expect(looksLikeApiKey('tsk_')).toBe(true);
    expect(looksLikeApiKey('tsk_not-a-key')).toBe(true);
  });

  it('never takes a JWT or another prefix as a key', () => {
    expect(looksLikeApiKey('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBe(false);
    expect(looksLikeApiKey('TSK_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
    expect(looksLikeApiKey('sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });

  it.each([
    ['too short', `tsk_${'A'.repeat(42)}`],
    ['too long', `tsk_${'A'.repeat(44)}`],
    ['padded', `tsk_${'A'.repeat(42)}=`],
    ['standard base64', `tsk_${'A'.repeat(42)}+`],
    ['a line break after it', `${generateApiKey()}\n`],
  ])('finds a key %s malformed', (_case, credential) => {
    expect(isWellFormedApiKey(credential)).toBe(false);
    expect(API_KEY_PATTERN.test(credential)).toBe(false);
  });
});
