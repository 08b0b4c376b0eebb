// How the service counts words, everywhere: a transcript's (`transcript_word_count`), a
// summary's (`word_count`) and the offline summarizer's length budget. ICU's word boundaries
// (Intl.Segmenter) for the text's language, so that languages written without spaces (Chinese,
// Japanese, Thai) count their words too, where counting runs of non-whitespace would see one.

// Node's ICU segmenter slows down sharply on long strings (one pass over a 3-hour transcript
// took ~20 s; 60,000 characters ~0.5 s): text is counted in pieces of about this many
// characters, cut where no word goes on (a space or punctuation), which keeps the cost linear.
const PIECE = 256;
const BOUNDARY = /[\s.,!?;:。，、！？；：]/;

/** Where to end a piece that starts at `start`: after the last boundary before its end. */
function pieceEnd(text: string, start: number): number {
  const end = Math.min(text.length, start + PIECE);
  if (end === text.length) return end;
  for (let i = end - 1; i > start + PIECE / 2; i--) {
    if (BOUNDARY.test(text.charAt(i))) return i + 1;
  }
  // Nothing to cut at (a long URL): the cut may split one word and count it twice.
  return end;
}

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

/** The words of `text` in `language` (a BCP 47 tag such as "en" or "zh-Hans"). */
export function countWords(text: string, language = 'en'): number {
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
