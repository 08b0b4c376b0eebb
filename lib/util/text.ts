// Small string helpers for untrusted text (captions, model answers), written as loops where the
// obvious regular expression backtracks: `/[,;]+$/` starts again at every character of a long
// run that does not reach the end, so a caption of 40,000 commas held the event loop for
// seconds (quadratic). test/unit/regex-safety.test.ts checks the patterns that remain.

/** `text` without the characters of `chars` at its end. Linear in the length of that run. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

// What shows nothing on a screen: white space, control characters, Unicode's default-ignorable
// code points (zero-width spaces and joiners, word joiner, soft hyphen, bidi marks, overrides and
// isolates, variation selectors, tag characters, the Hangul fillers such as U+3164), and the
// two that are drawn as blanks without being either: the blank Braille pattern (U+2800) and the
// musical null notehead (U+1D159). The property comes from the engine's own Unicode data.
const INVISIBLE = String.raw`\s\p{Cc}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}`;
const ALL_INVISIBLE = new RegExp(`^[${INVISIBLE}]*$`, 'u');

/**
 * Whether `text` shows nothing: empty, or only characters that render as nothing or as blank
 * space (what a person would call a blank field, however it was typed or pasted).
 */
export function isBlank(text: string): boolean {
  return ALL_INVISIBLE.test(text);
}

// A name (of an API key, or anything else a user names) is shown in lists and terminals: it
// may hold spaces between its words, but nothing that hides, reorders or breaks what is shown.
// Invisible characters are let through only inside an emoji, whose zero-width joiners and
// variation selectors are how 👩‍💻 and ❤️ are written (RGI_Emoji needs the `v` flag, which
// TypeScript's ES2022 target does not know in a literal; Node 20 and 22 both have it).
const HIDDEN_IN_NAME = new RegExp(`(?![\\p{Zs}])[${INVISIBLE}]`, 'u');
// biome-ignore lint/complexity/useRegexLiterals: the `v` flag (see above)
const EMOJI = new RegExp(String.raw`\p{RGI_Emoji}`, 'gv');

/**
 * The first character of `name` that a name may not hold, as `U+XXXX`, or undefined: line and
 * paragraph breaks, control characters, bidi marks, overrides and isolates, zero-width and other
 * invisible characters (outside an emoji). Spaces between words are fine.
 */
export function hiddenInName(name: string): string | undefined {
  const found = HIDDEN_IN_NAME.exec(name.replace(EMOJI, ''));
  return found ? codePointName(found[0]) : undefined;
}

// What a line of text from outside (a transcription server's, a creator's chapter line) may not
// bring into the API's output: control characters (C0 and C1, but for tab and newline), bidi
// marks, overrides and isolates, and the other default-ignorable characters, outside an emoji.
// biome-ignore lint/complexity/useRegexLiterals: the `v` flag (see above)
const HIDDEN_OR_EMOJI = new RegExp(
  String.raw`(\p{RGI_Emoji})|(?![\t\n])[\p{Cc}\p{Default_Ignorable_Code_Point}]`,
  'gv',
);

/**
 * `text` without the characters that hide, reorder or garble what is shown (controls but tab
 * and newline, bidi overrides and isolates, zero-width and other invisible format characters);
 * emoji keep their joiners and variation selectors.
 */
export function withoutHidden(text: string): string {
  return text.replace(HIDDEN_OR_EMOJI, (_match, emoji: string | undefined) => emoji ?? '');
}

/** `U+XXXX` for a character (its first code point). */
const codePointName = (char: string) =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

// Where a sentence ends: its punctuation and any closing quote or bracket, then a space (or the
// end); full-width punctuation needs no space after it.
const SENTENCE_END = /[.!?…][\]"'”’)]*(?=\s|$)|[。！？][」』”’）)]*/gu;

/**
 * `text` cut to at most `words` whitespace-separated words and `chars` characters: at the last
 * sentence end in that stretch when one ends its second half, else at a space, with an
 * ellipsis. Linear in the length of `text`.
 */
export function cutText(text: string, words: number, chars: number): string {
  let end = Math.min(text.length, chars);
  const word = /\S+/g;
  for (let count = 0; count < words; count++) {
    if (!word.exec(text) || word.lastIndex >= end) break;
    if (count === words - 1) end = word.lastIndex;
  }
  if (end >= text.length) return text;
  let sentenceEnd = -1;
  SENTENCE_END.lastIndex = 0;
  for (let match = SENTENCE_END.exec(text); match; match = SENTENCE_END.exec(text)) {
    const after = match.index + match[0].length;
    if (after > end) break;
    sentenceEnd = after;
  }
  if (sentenceEnd >= end / 2) return text.slice(0, sentenceEnd).trim();
  const stretch = text.slice(0, end);
  const space = stretch.lastIndexOf(' ');
  return `${(space > end / 2 ? stretch.slice(0, space) : stretch).trim()}…`;
}
