import { describe, expect, it } from 'vitest';
import { countWords } from '../../../lib/util/words';

/** What ICU's word boundaries (Intl.Segmenter) count: the reference for spaced scripts. */
function icuWords(text: string, language: string): number {
  let count = 0;
  for (const segment of new Intl.Segmenter(language, { granularity: 'word' }).segment(text)) {
    if (segment.isWordLike) count++;
  }
  return count;
}

describe('countWords', () => {
  it.each([
    ['Hello, world!', 2],
    ["It's state-of-the-art.", 5],
    ['3.5 million U.S. dollars', 4],
    ['(2) so -- what?', 3],
    ['naïve café résumé', 3],
    ['Привет, мир', 2],
    ['  \n\t ', 0],
  ])('counts %j as %i words, as ICU does', (text, words) => {
    expect(countWords(text, 'en')).toBe(words);
    expect(icuWords(text, 'en')).toBe(words);
  });

  it.each([
    ['zh', '这不是原始字幕。我们是学生。'],
    ['ja', '日本語のテキストです'],
    ['th', 'สวัสดีครับ ยินดีต้อนรับ'],
  ])('finds the words of %s, written without spaces, with ICU', (language, text) => {
    expect(countWords(text, language)).toBe(icuWords(text, language));
    expect(countWords(text, language)).toBeGreaterThan(text.split(/\s+/).length);
  });

  it('counts a long unspaced text in pieces without losing words', () => {
    const sentence = '这不是原始字幕。';
    const once = countWords(sentence, 'zh');

    expect(countWords(sentence.repeat(500), 'zh')).toBe(once * 500);
  });
});
