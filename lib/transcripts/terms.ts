// What a passage of text is about, as terms comparable across wordings: what key points are
// anchored by (a model's sentence against the captions near its time) and what
// questions are matched by (a question against the transcript's passages).
// One rule for both, so that a question and an answer's citation agree on what a word is.

// Words too common to tell one passage from another.
const COMMON = new Set(
  `about above after again also always among another anything around because been before
  being below between both cannot could does doing down during each even ever every from going
  gonna have having here into just know like little look make many more most much must need
  never only other over really right same should since some something still such sure take
  than that their them then there these they thing things think this those through very want
  well were what when where which while will with would your yeah okay actually basically
  all and any are but can did for get got had has her him his how its let may not now off one
  our out own say see she the too two use was way who why yes you`
    .split(/\s+/)
    .filter(Boolean),
);
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// Made on first use: creating it loads ICU's word-break data, ~15 ms of every cold start of
// /summarize (most of which are answered from the cache without ever anchoring a key point).
let segmenter: Intl.Segmenter | undefined;

/** Letters a term keeps: "convolution" and "convolutional" both become "convo". */
const TERM_LETTERS = 5;

/**
 * The terms of a text, in order and with repeats: its uncommon words of at least `minLength`
 * letters (default 4), without a plural "s", cut to their first five letters, or, in scripts written without spaces,
 * the words ICU finds (of two characters or more). Linear in the text's length.
 */
export function termsOf(text: string, minLength = 4): string[] {
  const terms: string[] = [];
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  for (const { segment, isWordLike } of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (!isWordLike) continue;
    if (UNSPACED.test(segment)) {
      if (segment.length >= 2) terms.push(segment);
    } else if (segment.length >= minLength && !COMMON.has(segment)) {
      // A plural's "s" goes first, so that "edges" meets "edge" ("class" keeps its own).
      const singular =
        segment.length > 4 && /[^s]s$/u.test(segment) ? segment.slice(0, -1) : segment;
      terms.push(singular.slice(0, TERM_LETTERS));
    }
  }
  return terms;
}

/** The distinct terms of a text (termsOf). */
export function keysOf(text: string, minLength = 4): Set<string> {
  return new Set(termsOf(text, minLength));
}
