import { describe, expect, it } from 'vitest';
import { hiddenInName, isBlank, trimEndOf, withoutHidden } from '../../../lib/util/text';

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

/** Characters that show nothing, each alone a blank text and each refused in a name. */
const INVISIBLE: [string, string][] = [
  ['U+200B zero-width space', '\u200B'],
  ['U+200C zero-width non-joiner', '\u200C'],
  ['U+200D zero-width joiner', '\u200D'],
  ['U+2060 word joiner', '\u2060'],
  ['U+FEFF byte order mark', '\uFEFF'],
  ['U+00AD soft hyphen', '\u00AD'],
  ['U+034F combining grapheme joiner', '\u034F'],
  ['U+3164 Hangul filler', '\u3164'],
  ['U+115F Hangul choseong filler', '\u115F'],
  ['U+FFA0 halfwidth Hangul filler', '\uFFA0'],
  ['U+2800 Braille pattern blank', '\u2800'],
  ['U+1D159 musical null notehead', '\u{1D159}'],
  ['U+180E Mongolian vowel separator', '\u180E'],
  ['U+FE0F variation selector', '\uFE0F'],
  ['U+E0020 tag space', '\u{E0020}'],
  ['U+200E left-to-right mark', '\u200E'],
  ['U+200F right-to-left mark', '\u200F'],
  ['U+061C Arabic letter mark', '\u061C'],
  ['U+202A left-to-right embedding', '\u202A'],
  ['U+202E right-to-left override', '\u202E'],
  ['U+2066 left-to-right isolate', '\u2066'],
  ['U+2069 pop directional isolate', '\u2069'],
  ['U+0007 bell', '\u0007'],
  ['U+0085 next line', '\u0085'],
];

describe('isBlank', () => {
  it.each(INVISIBLE)('counts a text of %s as blank', (_name, char) => {
    expect(isBlank(char)).toBe(true);
    expect(isBlank(`${char}${char} ${char}\n`)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['spaces, tabs, line breaks', ' \t\n\r'],
    ['U+2028, U+2029', '\u2028\u2029'],
    ['no-break and ideographic spaces', '\u00A0\u3000\u2007'],
  ])('counts %s as blank', (_name, text) => {
    expect(isBlank(text)).toBe(true);
  });

  it.each([
    ['a letter among invisible ones', '\u200Ba\u2060'],
    ['a question', 'What is a kernel?'],
    ['an emoji', '🙂'],
    ['a combining accent on its own', '\u0301'],
    ['a CJK character', '卷'],
    ['a Braille letter', '\u2801'],
  ])('does not count %s as blank', (_name, text) => {
    expect(isBlank(text)).toBe(false);
  });
});

describe('hiddenInName', () => {
  it.each(INVISIBLE.filter(([name]) => !name.includes('zero-width joiner')))(
    'names %s, between two letters',
    (_name, char) => {
      const codePoint = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

      expect(hiddenInName(`lap${char}top`)).toBe(`U+${codePoint}`);
    },
  );

  it.each([
    ['a line separator', 'a\u2028b', 'U+2028'],
    ['a paragraph separator', 'a\u2029b', 'U+2029'],
    ['a line break', 'a\nb', 'U+000A'],
    ['a tab', 'a\tb', 'U+0009'],
    ['a zero-width joiner between letters', 'a\u200Db', 'U+200D'],
    ['a variation selector after a letter', 'a\uFE0F', 'U+FE0F'],
    ['the first of several', 'x\u202Ey\u200Bz', 'U+202E'],
  ])('names %s', (_name, text, found) => {
    expect(hiddenInName(text)).toBe(found);
  });

  it.each([
    ['words and spaces', 'ci runner 2'],
    ['no-break and ideographic spaces', 'my\u00A0key\u3000二'],
    ['accents, composed and not', 'café cafe\u0301'],
    ['right-to-left text', 'מפתח של עבודה'],
    ['an emoji with joiners', '👩‍💻 work'],
    ['an emoji with a variation selector', '❤️ home'],
    ['a flag of tags', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 laptop'],
    ['a flag of regional indicators', '🇫🇷'],
    ['a skin tone', '👍🏽'],
  ])('lets %s through', (_name, text) => {
    expect(hiddenInName(text)).toBeUndefined();
  });
});

describe('withoutHidden', () => {
  it.each([
    ['C0 controls', 'a\u0000b\u0007c\u001bd\u007fe', 'abcde'],
    ['C1 controls', 'a\u0085b\u009bc', 'abc'],
    ['bidi overrides and isolates', '\u202Etxt.exe\u202C \u2066x\u2069 \u200F', 'txt.exe x '],
    ['zero-width and soft hyphen', 'zero\u200Bwidth\u00ADed\uFEFF', 'zerowidthed'],
  ])('removes %s', (_what, text, clean) => {
    expect(withoutHidden(text)).toBe(clean);
  });

  it('keeps tab, newline, spaces and emoji with their joiners and variation selectors', () => {
    const text = 'a\tb\nc d 👩‍💻 ❤️ 🇫🇷';

    expect(withoutHidden(text)).toBe(text);
  });
});
