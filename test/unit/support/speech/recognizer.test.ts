import { describe, expect, it } from 'vitest';
import { bigramArpa, vocabularyOf } from '../../../support/speech/language-model';
import { parseHypseg } from '../../../support/speech/pocketsphinx';
import { segmentsOf } from '../../../support/speech/whisper';

describe('parseHypseg', () => {
  it("reads pocketsphinx's words and frames, leaving out its fillers", () => {
    const line =
      'u S 0 T -51 A -47 L -36 0 -416768 0 <s> 52 -1518592 -242 good 72 -1915904 -92 ' +
      'morning(2) 119 -2438 -49 <sil> 150 -1000 -1 [NOISE] 160 -1200 -3 sea 195 -30 -1 </s> 201\n';

    expect(parseHypseg(line)).toEqual([
      { word: 'good', startMs: 520, endMs: 720 },
      { word: 'morning', startMs: 720, endMs: 1190 },
      { word: 'sea', startMs: 1600, endMs: 1950 },
    ]);
  });

  it('hears nothing in an empty answer', () => {
    expect(parseHypseg('')).toEqual([]);
  });
});

describe('segmentsOf', () => {
  it('starts a segment after a pause longer than 0.3 s or after twelve words', () => {
    const words = [
      ...Array.from({ length: 14 }, (_, i) => ({
        word: `w${i}`,
        startMs: i * 100,
        endMs: i * 100 + 90,
      })),
      { word: 'late', startMs: 1800, endMs: 2000 },
    ];

    const segments = segmentsOf(words);

    expect(segments.map((segment) => segment.text.split(' ').length)).toEqual([12, 2, 1]);
    expect(segments[1]).toMatchObject({ startMs: 1200, endMs: 1390 });
    expect(segments[2]).toMatchObject({ startMs: 1800, endMs: 2000, text: 'late' });
  });
});

describe('bigramArpa', () => {
  const sentences = ['The sun rises in the east.', 'The stars rise in the night, the sun sets.'];

  /** log10 probabilities and back-off weights, as pocketsphinx reads them. */
  function read(arpa: string) {
    const unigrams = new Map<string, { p: number; backoff: number }>();
    const bigrams = new Map<string, number>();
    let section = '';
    for (const line of arpa.split('\n')) {
      if (line.startsWith('\\')) section = line;
      const fields = line.split(' ');
      if (section === '\\1-grams:' && fields.length === 3) {
        unigrams.set(fields[1] as string, { p: Number(fields[0]), backoff: Number(fields[2]) });
      }
      if (section === '\\2-grams:' && fields.length === 3) {
        bigrams.set(`${fields[1]} ${fields[2]}`, Number(fields[0]));
      }
    }
    return { unigrams, bigrams };
  }

  it("gives every history's next words probabilities that add up to one", () => {
    const { unigrams, bigrams } = read(bigramArpa(sentences));
    const next = [...unigrams.keys()].filter((word) => word !== '<s>');

    expect(next.sort()).toEqual([...vocabularyOf(sentences), '</s>'].sort());
    const total = (history: string) =>
      next.reduce((sum, word) => {
        const listed = bigrams.get(`${history} ${word}`);
        const backedOff = (unigrams.get(history)?.backoff ?? 0) + (unigrams.get(word)?.p ?? 0);
        return sum + 10 ** (listed ?? backedOff);
      }, 0);
    expect(next.reduce((sum, word) => sum + 10 ** (unigrams.get(word)?.p ?? 0), 0)).toBeCloseTo(
      1,
      4,
    );
    for (const history of ['<s>', ...vocabularyOf(sentences)]) {
      expect(total(history), history).toBeCloseTo(1, 4);
    }
  });

  it('prefers the word the script says next', () => {
    const { bigrams } = read(bigramArpa(sentences));

    expect(bigrams.get('the sun')).toBeGreaterThan(bigrams.get('the east') as number);
    expect(bigrams.has('sun stars')).toBe(false);
  });
});
