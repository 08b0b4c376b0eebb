// A new key's lifetime and where a key stands with it (web/account/key-lifetimes.ts).
import { describe, expect, it } from 'vitest';
import { apiKeyLifetimeSchema } from '../../../../lib/accounts/api-keys/schemas';
import {
  DEFAULT_KEY_LIFETIME,
  KEY_LIFETIMES,
  keyExpiry,
  newKeyBody,
} from '../../../../web/account/key-lifetimes';

describe('a new key’s lifetime', () => {
  it('offers 30 days, 90 days (the default), a year and never', () => {
    expect(KEY_LIFETIMES.map((lifetime) => lifetime.label)).toEqual([
      '30 days',
      '90 days',
      '1 year',
      'Never',
    ]);
    expect(KEY_LIFETIMES.find((lifetime) => lifetime.value === DEFAULT_KEY_LIFETIME)?.label).toBe(
      '90 days',
    );
  });

  it('asks for each lifetime in days the API takes, and for never by leaving them out', () => {
    const bodies = KEY_LIFETIMES.map((lifetime) => newKeyBody('laptop', lifetime.value));

    expect(bodies).toEqual([
      { name: 'laptop', expires_in_days: 30 },
      { name: 'laptop', expires_in_days: 90 },
      { name: 'laptop', expires_in_days: 365 },
      { name: 'laptop' },
    ]);
    for (const body of bodies) {
      if (body.expires_in_days !== undefined) {
        expect(apiKeyLifetimeSchema.safeParse(body.expires_in_days).success).toBe(true);
      }
    }
  });
});

describe('keyExpiry', () => {
  const at = '2026-11-23T15:00:00.000Z';

  it('says a key expires until its expires_at, and has expired from then on', () => {
    expect(keyExpiry(at, Date.parse(at) - 1)).toBe('expires');
    expect(keyExpiry(at, Date.parse(at))).toBe('expired');
    expect(keyExpiry(at, Date.parse(at) + 86_400_000)).toBe('expired');
  });

  it('says a key without expires_at never expires', () => {
    expect(keyExpiry(null, Date.now())).toBe('never');
  });
});
