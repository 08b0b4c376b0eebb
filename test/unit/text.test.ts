import { describe, expect, it } from 'vitest';
import { trimEndOf } from '../../lib/text';

describe('trimEndOf', () => {
  it.each([
    ['a graph,;', ',;', 'a graph'],
    ['a graph, x', ',', 'a graph, x'],
    ['—dash–', '-–—', '—dash'],
    [',,,', ',', ''],
    ['', ',', ''],
    ['tabs \t', ' \t', 'tabs'],
  ])('trims %j of %j to %j', (text, chars, trimmed) => {
    expect(trimEndOf(text, chars)).toBe(trimmed);
  });

  it('leaves a long run alone when another character ends the text', () => {
    const text = `${','.repeat(100_000)}x`;

    expect(trimEndOf(text, ',')).toBe(text);
  });
});
