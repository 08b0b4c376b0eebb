// Times as the page writes them (web/times.ts).
import { describe, expect, it } from 'vitest';
import { clock, dateTime } from '../../../web/times';

describe('clock', () => {
  it('writes times as YouTube does', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(81.2)).toBe('1:21');
    expect(clock(3725)).toBe('1:02:05');
  });
});

describe('dateTime', () => {
  it('writes an ISO time in the locale, and leaves anything else as it is', () => {
    expect(dateTime('2026-11-23T15:00:00.000Z')).toMatch(/2026/);
    expect(dateTime('2026-11-23T15:00:00.000Z')).not.toContain('T15');
    expect(dateTime('soon')).toBe('soon');
  });
});
