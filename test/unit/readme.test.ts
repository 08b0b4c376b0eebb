// The README is the service's manual: every variable the service reads is part of its
// interface and must be documented there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../lib/config';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it('documents every variable of lib/config.ts', () => {
    const missing = CONFIG_VARIABLES.filter((name) => !readme.includes(`\`${name}\``));

    expect(missing).toEqual([]);
  });
});
