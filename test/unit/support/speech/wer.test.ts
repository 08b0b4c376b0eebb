import { describe, expect, it } from 'vitest';
import {
  alignWords,
  landSentences,
  normalizeWords,
  timedWords,
  wordErrorRate,
} from '../../../support/speech/wer';

describe('normalizeWords', () => {
  it('compares words without case, punctuation, pronunciation markers or fillers', () => {
    const words = normalizeWords(
      "<s> Good morning, EVERYONE! and(2) [NOISE] don't <sil> ++BREATH++ </s>",
    );

    expect(words).toEqual(['good', 'morning', 'everyone', 'and', "don't"]);
  });
});

describe('wordErrorRate', () => {
  it('counts substitutions, deletions and insertions of a minimum-edit alignment', () => {
    const errors = wordErrorRate('one two three four five six', 'one too three five six seven');

    expect(errors).toEqual({
      rate: 3 / 6,
      substitutions: 1,
      deletions: 1,
      insertions: 1,
      referenceWords: 6,
      hypothesisWords: 6,
    });
  });

  it('counts the fewest edits when several alignments tie', () => {
    const errors = wordErrorRate('the sun rises in the east', 'the son rises in east and west');

    expect(errors.substitutions + errors.deletions + errors.insertions).toBe(4);
    expect(errors.rate).toBeCloseTo(4 / 6);
  });

  it('is zero for the same words however they are written', () => {
    expect(wordErrorRate('At night, the stars.', 'at night the stars').rate).toBe(0);
  });

  it('aligns each reference word once, in order', () => {
    const pairs = alignWords(['a', 'b', 'c'], ['a', 'x', 'c', 'd']);

    expect(pairs.map((pair) => pair.op)).toEqual(['match', 'substitution', 'match', 'insertion']);
    expect(pairs.flatMap((pair) => pair.reference ?? [])).toEqual([0, 1, 2]);
  });
});

describe('landSentences', () => {
  const sentences = [
    { text: 'the sun rises in the east', startMs: 1000, endMs: 3000 },
    { text: 'the stars hardly move at all', startMs: 4000, endMs: 6000 },
  ];

  it('puts each sentence where its matched words landed', () => {
    const heard = [
      { startMs: 2500, endMs: 4500, text: 'the son rises in the east' },
      { startMs: 5500, endMs: 7500, text: 'the stars hardly move at all' },
    ];

    const landings = landSentences(sentences, heard);

    expect(landings.map((landing) => landing.offsetMs)).toEqual([1500, 1500]);
    expect(landings.map((landing) => landing.matchedWords)).toEqual([5, 6]);
    expect(landings[0]?.firstMatchMs).toBe(2500);
  });

  it('leaves a sentence none of whose words were heard without a place', () => {
    const landings = landSentences(sentences, [{ startMs: 0, endMs: 900, text: 'the sun rises' }]);

    expect(landings[1]).toMatchObject({ matchedWords: 0, offsetMs: undefined });
  });

  it("shares a segment's time among its words by their length", () => {
    expect(timedWords([{ startMs: 0, endMs: 900, text: 'ab cdef' }])).toEqual([
      { word: 'ab', atMs: 0 },
      { word: 'cdef', atMs: 300 },
    ]);
  });
});
