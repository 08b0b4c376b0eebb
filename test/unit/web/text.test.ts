// Texts as the page shows them (web/text.ts): paragraphs, citations' excerpts.
import { describe, expect, it } from 'vitest';
import { excerpt, paragraphsOf } from '../../../web/text';

describe('paragraphsOf', () => {
  it('splits at blank lines and drops empty paragraphs', () => {
    expect(paragraphsOf('One [0:05]\n\nTwo\nstill two\n\n\n  \n\nThree')).toEqual([
      'One [0:05]',
      'Two\nstill two',
      'Three',
    ]);
  });
});

describe('excerpt', () => {
  it('keeps a short text whole', () => {
    expect(excerpt('  So, a kernel.  ', 20)).toBe('So, a kernel.');
  });

  it('cuts a long one at a word, without a dangling comma, and says so', () => {
    expect(excerpt('So, but, but, because, if you do not know', 14)).toBe('So, but, but…');
    expect(excerpt('Supercalifragilistic', 5)).toBe('Super…');
  });
});
