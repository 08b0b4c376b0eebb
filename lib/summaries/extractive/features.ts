// What the ranking's model looks at in each sentence (FEATURES), and how those features are
// computed: position, fragments, centrality, filler, length and the lexical cues.
import type { Steps } from '../../util/cooperative';
import { readSentence, type Sentence, STOPWORDS } from './content-words';
import { CUE_WORDS } from './cue-words';

// Fewer tokens than this is a fragment ("Brilliant!", "Um?", "Net and was."): ASR cuts and
// exclamations, which VT-SSum seldom labels as summary sentences (3% of them, 17% of the rest).
const FRAGMENT_TOKENS = 5;

/** What the model looks at in each sentence, in the order of its weights. */
export const FEATURES = [
  // Position: 1/(i+1), so only the opening sentences get a real bonus, and whether the sentence
  // is the very first or last (openings and sign-offs are greetings and thanks more often).
  'lead',
  'first',
  'last',
  // A fragment (fewer than FRAGMENT_TOKENS tokens), or followed by one: ASR often cuts a
  // sentence's end off into a fragment, and the cut sentence is then incomplete.
  'fragment',
  'beforeFragment',
  // Centrality: cosine between the sentence's content terms and the centroid of the whole text,
  // weighted by idf ln(1 + N/df) over its N sentences (MEAD's centroid). The sentence's own
  // terms are in that centroid, so it also grows with how many rare terms the sentence has.
  'centrality',
  // Share of the tokens that are stopwords or fillers, and that share times ln(1 + tokens): a
  // filler-heavy sentence is the worse the longer it rambles.
  'filler',
  'fillerLength',
  // ln(1 + tokens), and the mean token length in characters (technical words are long).
  'length',
  'wordLength',
  // Lexical cues: the mean over the tokens of a per-word log-odds of labelled sentences
  // (the generated word table): "um", "yeah", "I", "you" count against, "data" for.
  'cues',
] as const;

export type Feature = (typeof FEATURES)[number];
/** Per-word weights of the 'cues' feature, by lowercased token. */
export type CueWords = ReadonlyMap<string, number>;

/** The 'cues' feature: the mean weight of the tokens in `cues` (0 for words not in it). */
export function cueScore(tokens: readonly string[], cues: CueWords = CUE_WORDS): number {
  let sum = 0;
  for (const token of tokens) sum += cues.get(token) ?? 0;
  return tokens.length === 0 ? 0 : sum / tokens.length;
}

// The cosine of each sentence's idf-weighted term vector with the text's centroid (the sum of
// all those vectors, the sentence's own included): linear in the text's length. (The cosine with
// the centroid of the other sentences only, which would not reward a sentence for its own rare
// words, did worse on the train videos: see the note above WEIGHTS.)
function centralities(sentences: Sentence[]): number[] {
  const documentFrequency = new Map<string, number>();
  for (const { terms } of sentences) {
    for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const idf = new Map<string, number>();
  let centroidNorm = 0;
  for (const [term, df] of documentFrequency) {
    const weight = Math.log(1 + sentences.length / df);
    idf.set(term, weight);
    centroidNorm += (df * weight) ** 2;
  }
  return sentences.map(({ terms }) => {
    let dot = 0;
    let norm = 0;
    for (const term of terms) {
      const weight = idf.get(term) ?? 0;
      dot += weight * weight * (documentFrequency.get(term) ?? 0);
      norm += weight * weight;
    }
    return norm === 0 ? 0 : dot / Math.sqrt(norm * centroidNorm);
  });
}

interface Context {
  index: number;
  count: number;
  centrality: number;
  next: Sentence | undefined;
  cues: CueWords;
}

function featuresOf(sentence: Sentence, context: Context): Record<Feature, number> {
  const { index, count, centrality, next, cues } = context;
  const { tokens } = sentence;
  const length = Math.log(1 + tokens.length);
  let fillers = 0;
  let characters = 0;
  for (const token of tokens) {
    if (STOPWORDS.has(token)) fillers++;
    characters += token.length;
  }
  // A sentence without a single word is all filler.
  const filler = tokens.length === 0 ? 1 : fillers / tokens.length;
  return {
    lead: 1 / (index + 1),
    first: index === 0 ? 1 : 0,
    last: index === count - 1 && count > 1 ? 1 : 0,
    fragment: tokens.length < FRAGMENT_TOKENS ? 1 : 0,
    beforeFragment: next !== undefined && next.tokens.length < FRAGMENT_TOKENS ? 1 : 0,
    centrality,
    filler,
    fillerLength: filler * length,
    length,
    wordLength: tokens.length === 0 ? 0 : characters / tokens.length,
    cues: cueScore(tokens, cues),
  };
}

export interface SentenceFeatures {
  /** Distinct content stems of each sentence. */
  terms: string[][];
  /** One vector per sentence, in FEATURES order. */
  features: number[][];
}

/**
 * The content terms and the model's features of each sentence, in input order; `cues` is the
 * word table of the 'cues' feature (bench/tune-ranking.ts passes its own when cross-fitting).
 */
export function* sentenceFeatures(
  sentences: string[],
  cues: CueWords = CUE_WORDS,
): Steps<SentenceFeatures> {
  const stems = new Map<string, string>();
  const read: Sentence[] = [];
  for (const sentence of sentences) {
    read.push(readSentence(sentence, stems));
    yield;
  }
  const central = centralities(read);
  const features = read.map((sentence, index) => {
    const named = featuresOf(sentence, {
      index,
      count: read.length,
      centrality: central[index] ?? 0,
      next: read[index + 1],
      cues,
    });
    return FEATURES.map((name) => named[name]);
  });
  return { terms: read.map((sentence) => sentence.terms), features };
}
