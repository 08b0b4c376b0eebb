// The cooperative JSON parser gives what JSON.parse gives, refuses what it refuses, and pauses
// while it reads: the same document, taken apart in steps.
import { describe, expect, it } from 'vitest';
import { runToEnd } from '../../../lib/util/cooperative';
import { parseJson } from '../../../lib/util/cooperative-json';

const parse = (text: string) => runToEnd(parseJson(text));

describe('parseJson', () => {
  it.each([
    '0',
    '-12.5e+3',
    '"plain"',
    '"esc\\"aped \\\\ \\u00e9 \\n"',
    'true',
    'null',
    '[]',
    '{}',
    ' [ 1 , [ 2, { "a" : [ ] } ], "x" ] ',
    '{"a":{"b":{"c":[1,2,{"d":null}]}},"e":"\\\\"}',
    '{"__proto__":{"polluted":1},"x":1}',
    '"ends with a backslash \\\\"',
    '{"text":" héllo wörld ✓","start":0.5,"end":1e2}',
  ])('reads %s as JSON.parse does', (text) => {
    expect(parse(text)).toEqual(JSON.parse(text));
  });

  it('keeps a __proto__ key as an own property, not the prototype', () => {
    const value = parse('{"__proto__":{"polluted":1}}') as Record<string, unknown>;

    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    '',
    '[1,]',
    '{"a":1,}',
    '{"a" 1}',
    '[1 2]',
    '01',
    '1.',
    '"unterminated',
    '"raw\ttab"',
    '"bad \\x escape"',
    '{a:1}',
    'tru',
    '[1]]',
    '{"a":1} x',
    "'single'",
  ])('refuses %s with a SyntaxError, as JSON.parse does', (text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => parse(text)).toThrow(SyntaxError);
  });

  it('refuses nesting deeper than 512 levels, and reads 512', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

    expect(() => parse(nested(513))).toThrow(/Too deeply nested/);
    expect(parse(nested(512))).toEqual(JSON.parse(nested(512)));
  });

  it('reads a large random document exactly, pausing along the way', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const value = (depth: number): unknown => {
      const pick = random();
      if (depth > 3 || pick < 0.3) return Math.round(random() * 1e6) / 100;
      if (pick < 0.5) return `s${random().toString(36)}"\\\n`;
      if (pick < 0.6) return random() < 0.5 ? null : true;
      if (pick < 0.8) return Array.from({ length: 20 }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [`k${i}${random()}`, value(depth + 1)]),
      );
    };
    const document = Array.from({ length: 40 }, () => value(0));
    const text = JSON.stringify(document);

    const steps = parseJson(text);
    let pauses = 0;
    let step = steps.next();
    while (!step.done) {
      pauses++;
      step = steps.next();
    }

    expect(step.value).toEqual(document);
    expect(pauses).toBeGreaterThan(10);
  });
});
