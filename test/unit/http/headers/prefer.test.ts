// RFC 7240's Prefer header as POST /summarize reads it.
import { describe, expect, it } from 'vitest';
import { preferenceApplied, readPreferences, waitMsFor } from '../../../../lib/http/headers/prefer';

describe('reading Prefer', () => {
  it.each([
    [undefined, { respondAsync: false }],
    ['respond-async', { respondAsync: true }],
    ['wait=7', { respondAsync: false, waitSeconds: 7 }],
    ['respond-async, wait=2', { respondAsync: true, waitSeconds: 2 }],
    ['Respond-Async;foo=bar, WAIT="3"', { respondAsync: true, waitSeconds: 3 }],
    ['wait=-1', { respondAsync: false }],
    ['wait=soon', { respondAsync: false }],
    ['wait=1e3', { respondAsync: false }],
    ['return=minimal, handling=strict', { respondAsync: false }],
    ['__proto__=1, constructor', { respondAsync: false }],
  ])('reads %j as %j', (header, expected) => {
    expect(readPreferences(header)).toEqual(expected);
  });
});

describe('how long to wait', () => {
  it('waits the server’s wait without preferences, none with respond-async', () => {
    expect(waitMsFor(readPreferences(undefined), 20_000)).toBe(20_000);
    expect(waitMsFor(readPreferences('respond-async'), 20_000)).toBe(0);
  });

  it('waits what wait=N asks for, never more than the server’s wait', () => {
    expect(waitMsFor(readPreferences('wait=3'), 20_000)).toBe(3_000);
    expect(waitMsFor(readPreferences('respond-async, wait=3'), 20_000)).toBe(3_000);
    expect(waitMsFor(readPreferences('wait=600'), 20_000)).toBe(20_000);
  });
});

describe('Preference-Applied', () => {
  it('says respond-async only when the answer is the job, and wait=N whenever it was asked', () => {
    const both = readPreferences('respond-async, wait=3');

    expect(preferenceApplied(both, true)).toBe('respond-async, wait=3');
    expect(preferenceApplied(both, false)).toBe('wait=3');
    expect(preferenceApplied(readPreferences('respond-async'), false)).toBeUndefined();
    expect(preferenceApplied(readPreferences(undefined), true)).toBeUndefined();
  });
});
