// How close a transcript is to the script: the word error rate (a Levenshtein alignment of
// normalized words), and where each of the script's sentences landed in the transcript's
// times, from the same alignment.

/** pocketsphinx's fillers and markers: `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++BREATH++`. */
export const FILLER = /^(?:<[^>]*>|\[[^\]]*\]|\+\+.*\+\+)$/;

/**
 * The words of `text` as compared: lowercase, punctuation gone (an apostrophe inside a word
 * stays: "don't"), a pronunciation marker such as `what(2)` stripped, fillers dropped.
 */
export function normalizeWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((token) => token !== '' && !FILLER.test(token))
    .map((token) =>
      token
        .toLowerCase()
        .replace(/\(\d+\)$/, '')
        .replace(/[^a-z0-9']+/g, '')
        .replace(/^'+|'+$/g, ''),
    )
    .filter((word) => word !== '');
}

/** One step of an alignment: a reference word matched, substituted or deleted, or an insertion. */
export interface AlignedPair {
  op: 'match' | 'substitution' | 'deletion' | 'insertion';
  /** Index into the reference words (absent for an insertion). */
  reference?: number;
  /** Index into the hypothesis words (absent for a deletion). */
  hypothesis?: number;
}

/** A minimum-edit alignment of two word lists, in order. */
export function alignWords(reference: readonly string[], hypothesis: readonly string[]) {
  const columns = hypothesis.length + 1;
  // cost[i * columns + j]: the edits that turn reference[0, i) into hypothesis[0, j).
  const cost = new Uint32Array((reference.length + 1) * columns);
  for (let j = 0; j < columns; j++) cost[j] = j;
  for (let i = 1; i <= reference.length; i++) {
    cost[i * columns] = i;
    for (let j = 1; j < columns; j++) {
      const diagonal =
        (cost[(i - 1) * columns + j - 1] as number) +
        (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      const up = (cost[(i - 1) * columns + j] as number) + 1;
      const left = (cost[i * columns + j - 1] as number) + 1;
      cost[i * columns + j] = Math.min(diagonal, up, left);
    }
  }
  const pairs: AlignedPair[] = [];
  let i = reference.length;
  let j = hypothesis.length;
  while (i > 0 || j > 0) {
    const here = cost[i * columns + j] as number;
    const same = i > 0 && j > 0 && reference[i - 1] === hypothesis[j - 1];
    if (i > 0 && j > 0 && here === (cost[(i - 1) * columns + j - 1] as number) + (same ? 0 : 1)) {
      pairs.push({ op: same ? 'match' : 'substitution', reference: --i, hypothesis: --j });
    } else if (i > 0 && here === (cost[(i - 1) * columns + j] as number) + 1) {
      pairs.push({ op: 'deletion', reference: --i });
    } else {
      pairs.push({ op: 'insertion', hypothesis: --j });
    }
  }
  return pairs.reverse();
}

/** A word error rate and what makes it up. */
export interface WordErrors {
  /** (substitutions + deletions + insertions) / reference words: 0.05 is 5%. */
  rate: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceWords: number;
  hypothesisWords: number;
}

/** The word error rate of `hypothesis` against `reference` (both texts, normalized here). */
export function wordErrorRate(reference: string, hypothesis: string): WordErrors {
  const expected = normalizeWords(reference);
  const heard = normalizeWords(hypothesis);
  const count = { match: 0, substitution: 0, deletion: 0, insertion: 0 };
  for (const pair of alignWords(expected, heard)) count[pair.op]++;
  const errors = count.substitution + count.deletion + count.insertion;
  return {
    rate: expected.length === 0 ? (heard.length === 0 ? 0 : 1) : errors / expected.length,
    substitutions: count.substitution,
    deletions: count.deletion,
    insertions: count.insertion,
    referenceWords: expected.length,
    hypothesisWords: heard.length,
  };
}

/** Text with times in ms (a transcript's segment, or one recognized word). */
export interface TimedText {
  startMs: number;
  endMs: number;
  text: string;
}

/** A sentence of the script and where the script put it (ms from the start of the audio). */
export interface PlacedSentence {
  text: string;
  startMs: number;
  endMs: number;
}

/** Where one sentence of the script landed in a transcript. */
export interface SentenceLanding {
  index: number;
  text: string;
  /** Where the script put the sentence. */
  scriptStartMs: number;
  /** Its words that the transcript has (an exact match in the alignment), of `words`. */
  matchedWords: number;
  words: number;
  /** The transcript's time of the first matched word; undefined when none matched. */
  firstMatchMs?: number;
  /**
   * How far the transcript put the sentence from the script: the median, over its matched
   * words, of (the word's time in the transcript - its time in the script). Undefined when none.
   */
  offsetMs?: number;
}

/**
 * The words of timed texts, each timed: a text's words share its time in proportion to their
 * length (a text of one word keeps its own start).
 */
export function timedWords(texts: readonly TimedText[]): { word: string; atMs: number }[] {
  return texts.flatMap((timed) => spread(timed.text, timed.startMs, timed.endMs));
}

function spread(text: string, startMs: number, endMs: number) {
  const words = normalizeWords(text);
  const letters = words.reduce((sum, word) => sum + word.length, 0);
  let before = 0;
  return words.map((word) => {
    const atMs = startMs + (letters === 0 ? 0 : ((endMs - startMs) * before) / letters);
    before += word.length;
    return { word, atMs };
  });
}

/**
 * For each sentence of the script, where it landed in `heard` (segments or words, in order):
 * the script's and the transcript's words aligned as for the word error rate, each matched
 * word's time compared with its time in the script (its share of its sentence's time).
 */
export function landSentences(
  sentences: readonly PlacedSentence[],
  heard: readonly TimedText[],
): SentenceLanding[] {
  const expected = sentences.flatMap((sentence, index) =>
    spread(sentence.text, sentence.startMs, sentence.endMs).map((word) => ({ ...word, index })),
  );
  const transcript = timedWords(heard);
  const offsets = sentences.map(() => [] as { atMs: number; offsetMs: number }[]);
  for (const pair of alignWords(
    expected.map((word) => word.word),
    transcript.map((word) => word.word),
  )) {
    if (pair.op !== 'match') continue;
    const said = expected[pair.reference as number];
    const got = transcript[pair.hypothesis as number];
    if (said && got) offsets[said.index]?.push({ atMs: got.atMs, offsetMs: got.atMs - said.atMs });
  }
  return sentences.map((sentence, index) => {
    const matched = offsets[index] ?? [];
    return {
      index,
      text: sentence.text,
      scriptStartMs: sentence.startMs,
      matchedWords: matched.length,
      words: expected.filter((word) => word.index === index).length,
      firstMatchMs: matched[0]?.atMs,
      offsetMs: median(matched.map((word) => word.offsetMs)),
    };
  });
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? sorted[middle]
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
