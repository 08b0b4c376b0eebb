import { dictionary } from '@zxcvbn-ts/language-common';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS_COUNT } from '../../../../lib/accounts/auth/common-passwords';
import {
  dummyHash,
  passwordProblem,
  verifyPassword,
} from '../../../../lib/accounts/auth/passwords';

describe('passwordProblem', () => {
  it('accepts a long, uncommon password', () => {
    expect(passwordProblem('violet-kettle-89-harbour')).toBeUndefined();
  });

  it('counts UTF-8 bytes, not characters, against the 72-byte limit', () => {
    expect(passwordProblem('é'.repeat(36))).toBeUndefined(); // 72 bytes
    expect(passwordProblem('é'.repeat(37))?.message).toMatch(/at most 72 bytes .* 74/);
    expect(passwordProblem('中'.repeat(25))?.message).toMatch(/75/); // 25 characters, 75 bytes
  });

  it('refuses fewer than 8 characters', () => {
    expect(passwordProblem('aB3$eF7')?.message).toMatch(/at least 8/);
  });

  it('refuses common passwords whatever their case', () => {
    expect(passwordProblem('password1')?.message).toMatch(/common/);
    expect(passwordProblem('ILoveYou')?.message).toMatch(/common/);
  });

  it('refuses exactly the 10,000 most common breached passwords it may see: no more, no fewer', () => {
    // The list as the generator picks it from the package, checked one by one against the
    // compressed copy the bundle carries.
    const common = new Set<string>();
    for (const password of dictionary['passwords-common']) {
      const key = password.toLowerCase();
      if ([...key].length < 8 || Buffer.byteLength(key) > 72) continue;
      common.add(key);
      if (common.size === COMMON_PASSWORDS_COUNT) break;
    }
    const refused = [...common].filter((p) => /common/.test(passwordProblem(p)?.message ?? ''));
    // The next ones down the list, and strong ones, are accepted.
    const rest = dictionary['passwords-common']
      .map((password) => password.toLowerCase())
      .filter((p) => [...p].length >= 8 && Buffer.byteLength(p) <= 72 && !common.has(p))
      .slice(0, 2_000);

    expect(COMMON_PASSWORDS_COUNT).toBe(10_000);
    expect(refused).toHaveLength(10_000);
    expect(rest.filter((p) => passwordProblem(p) !== undefined)).toEqual([]);
  });
});

describe('verifyPassword', () => {
  it('matches the right password and not another', async () => {
    const hash = await bcrypt.hash('violet-kettle-89', 4);

    expect(await verifyPassword('violet-kettle-89', hash)).toBe(true);
    expect(await verifyPassword('violet-kettle-88', hash)).toBe(false);
  });

  it('refuses a password longer than 72 bytes even when bcrypt would match its prefix', async () => {
    const password = 'a1B2'.repeat(18);
    const hash = await bcrypt.hash(password, 4);

    expect(await verifyPassword(`${password}EXTRA`, hash)).toBe(false);
  });
});

describe('dummyHash', () => {
  it.each([10, 11, 12, 13, 14, 15])('is a real bcrypt hash of cost %i', (cost) => {
    expect(bcrypt.getRounds(dummyHash(cost))).toBe(cost);
  });

  it('has no hash for a cost outside 10-15', () => {
    expect(() => dummyHash(4)).toThrow(RangeError);
  });
});
