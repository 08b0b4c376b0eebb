// The words of a sentence as the ranking counts them: its tokens, the stopwords and fillers of
// spoken English, and its content terms (stems), also as written for chapter titles.
import { english } from './english';

// Terms of one or two letters are mostly ASR debris ("uh", "mm") or units without context.
const MIN_TERM_LENGTH = 3;

// English function words plus the fillers of spoken language ("yeah", "gonna", "basically"):
// without the latter, "you know what I mean" ranks as content. Words outside this list are the
// content terms; the share of a sentence's words inside it is how much of it is filler.
export const STOPWORDS = new Set(
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

export interface Sentence {
  tokens: string[];
  /** Distinct content stems. */
  terms: string[];
}

/** The lowercased word tokens of a sentence, as every feature counts them (stopwords included). */
export function sentenceTokens(sentence: string): string[] {
  return sentence.toLowerCase().replace(/’/g, "'").match(TOKEN) ?? [];
}

/** Whether a lowercased token is a content term (not a stopword, filler or debris). */
const isContent = (token: string) => token.length >= MIN_TERM_LENGTH && !STOPWORDS.has(token);

/** The stem of a lowercased token, cached in `stems` (a text repeats its words). */
function stemOf(token: string, stems: Map<string, string>): string {
  let stem = stems.get(token);
  if (stem === undefined) {
    stem = english().stemWord(token);
    stems.set(token, stem);
  }
  return stem;
}

export function readSentence(sentence: string, stems: Map<string, string>): Sentence {
  const tokens = sentenceTokens(sentence);
  const terms = new Set<string>();
  for (const token of tokens) if (isContent(token)) terms.add(stemOf(token, stems));
  return { tokens, terms: [...terms] };
}

/** A content word of a sentence as written (its case kept), the term (stem) it counts as, and
 * its place among the sentence's tokens (two content words side by side make a phrase). */
export interface ContentWord {
  word: string;
  term: string;
  position: number;
  /** The token said just before it, as written ('' for the first): "the" in "the kernel". */
  previous: string;
}

/**
 * The content words of a sentence in order, with repeats: what the scores count as its terms,
 * each as the speaker wrote it (chapter titles show them). `terms` caches each word's term ('' for
 * a word that is not content) across the calls of one text, which repeats its words.
 */
export function contentWords(sentence: string, terms: Map<string, string>): ContentWord[] {
  const words: ContentWord[] = [];
  let position = 0;
  let previous = '';
  for (const word of sentence.replace(/’/g, "'").match(TOKEN) ?? []) {
    let term = terms.get(word);
    if (term === undefined) {
      const token = word.toLowerCase();
      // A lowercased token's entry is its stem too: the cache serves stemOf as well.
      term = isContent(token) ? stemOf(token, terms) : '';
      terms.set(word, term);
    }
    if (term !== '') words.push({ word, term, position, previous });
    previous = word;
    position++;
  }
  return words;
}
