// How the service counts words, everywhere: a transcript's (`transcript_word_count`), a
// summary's (`word_count`) and the offline summarizer's length budget.
//
// A word is a run of letters or digits, joined by an inner apostrophe or period ("it's",
// "3.5"); hyphens and other punctuation separate words, as ICU's word boundaries do. Scripts
// written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) need a
// dictionary to find their words: text in them is counted with ICU's word boundaries for its
// language (Intl.Segmenter), where counting runs of non-whitespace would see one long "word".
// The pattern does the rest, because ICU is slow: its per-call cost made the offline summarizer,
// which counts every sentence, four times slower on a 3-hour transcript.

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’.][\p{L}\p{M}\p{N}]+)*/gu;
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

// Node's ICU segmenter also slows down sharply on long strings (60,000 characters take ~0.5 s):
// unspaced text is counted in pieces of about this many characters, cut after punctuation or
// whitespace, which keeps the cost linear.
const PIECE = 256;
const BOUNDARY = /[\s.,!?;:。，、！？；：]/;

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(language: string): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    } catch {
      segmenter = new Intl.Segmenter('en', { granularity: 'word' });
    }
    segmenters.set(language, segmenter);
  }
  return segmenter;
}

/** Where to end a piece that starts at `start`: after the last boundary before its end. */
function pieceEnd(text: string, start: number): number {
  const end = Math.min(text.length, start + PIECE);
  if (end === text.length) return end;
  for (let i = end - 1; i > start + PIECE / 2; i--) {
    if (BOUNDARY.test(text.charAt(i))) return i + 1;
  }
  // Nothing to cut at: the cut may split one word and count it twice.
  return end;
}

function countWithIcu(text: string, language: string): number {
  const segmenter = segmenterFor(language);
  let count = 0;
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start);
    for (const segment of segmenter.segment(text.slice(start, end))) {
      if (segment.isWordLike) count++;
    }
    start = end;
  }
  return count;
}

/** The words of `text` in `language` (a BCP 47 tag such as "en" or "zh-Hans"). */
export function countWords(text: string, language = 'en'): number {
  if (UNSPACED.test(text)) return countWithIcu(text, language);
  let count = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text)) count++;
  return count;
}
