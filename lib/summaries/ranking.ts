// How summary-worthy each sentence of a transcript is, without supervision: the scores the
// offline summarizer picks sentences by (extractive.ts), and what bench/quality.ts measures
// against VT-SSum's labels.
import { runToEnd, type Steps } from '../cooperative';
import { english } from './english';

// Weight of a term shared by every sentence relative to one used once (log-scaled document
// frequency, so it means the same for a 10-sentence clip and a 2,000-sentence lecture), and the
// lead bonus of the first sentence (it decays as 1/(i+1)). Both tuned on the VT-SSum dev clips
// (bench/quality.ts); results are flat within ±2 of either value.
const CENTRALITY_WEIGHT = 6;
const LEAD_WEIGHT = 1.5;
// Terms of one or two letters are mostly ASR debris ("uh", "mm") or units without context.
const MIN_TERM_LENGTH = 3;

// English function words plus the fillers of spoken language ("yeah", "gonna", "basically"):
// without the latter, "you know what I mean" ranks as content. Adding them was worth +1.5 F1.
const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been
  before being below between both but by can can't cannot could couldn't did didn't do does
  doesn't doing don't down during each few for from further had hadn't has hasn't have haven't
  having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll
  i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor
  not of off on once only or other ought our ours ourselves out over own same shan't she she'd
  she'll she's should shouldn't so some such than that that's the their theirs them themselves
  then there there's these they they'd they'll they're they've this those through to too under
  until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
  where's which while who who's whom why why's will with won't would wouldn't you you'd you'll
  you're you've your yours yourself yourselves yeah yes okay ok oh um uh hmm like just really
  actually basically going gonna wanna gotta get got know think mean well right thing things
  something anything everything kind sort lot little bit want say said saying see look one two
  may might much many way thank thanks sure stuff guess maybe probably pretty quite now today`
    .split(/\s+/)
    .filter(Boolean),
);

const TOKEN = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;

function contentTerms(sentence: string, stems: Map<string, string>): string[] {
  const { stemWord } = english();
  const terms = new Set<string>();
  for (const match of sentence.toLowerCase().replace(/’/g, "'").matchAll(TOKEN)) {
    const token = match[0];
    if (token.length < MIN_TERM_LENGTH || STOPWORDS.has(token)) continue;
    let stem = stems.get(token);
    if (stem === undefined) {
      stem = stemWord(token);
      stems.set(token, stem);
    }
    terms.add(stem);
  }
  return [...terms];
}

export interface Analysis {
  /** Distinct content stems of each sentence. */
  terms: string[][];
  scores: number[];
}

// A sentence's score is the sum over its distinct content terms of 1 + w * ln(df) / ln(N): every
// content term counts (informativeness) and terms the rest of the text keeps returning to count
// more (centrality, as in MEAD's centroid), scaled by a decaying lead bonus (position).
export function* analyse(sentences: string[]): Steps<Analysis> {
  const stems = new Map<string, string>();
  const terms: string[][] = [];
  for (const sentence of sentences) {
    terms.push(contentTerms(sentence, stems));
    yield;
  }
  const documentFrequency = new Map<string, number>();
  for (const list of terms) {
    for (const term of list) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const logN = Math.log(Math.max(sentences.length, 2));
  const scores = terms.map((list, i) => {
    let sum = 0;
    for (const term of list) {
      sum += 1 + (CENTRALITY_WEIGHT * Math.log(documentFrequency.get(term) ?? 1)) / logN;
    }
    return sum * (1 + LEAD_WEIGHT / (i + 1));
  });
  return { terms, scores };
}

/**
 * Scores each sentence (higher is more summary-worthy) by informativeness, centrality and
 * position; one score per input sentence, in input order, linear in the input's length.
 */
export function rankSentences(sentences: string[]): number[] {
  return runToEnd(analyse(sentences)).scores;
}
