// Titles of chapters made without a model: each chapter's key term, a name said often in it and
// seldom in the others (tf-idf over the chapters), a phrase of two words first ("kernel
// convolutions", "house prices": side by side without a stopword between, they are nearly always
// names of things), and only a term said as a noun ("the root tips", "of images"; not "linear"
// nor "solve"), one title per chapter, no two chapters alike; or, for a chapter with no such
// term, its most central sentence's opening, a few words cut at a word boundary. A title is a
// name, never a list of keywords.

import { withoutFillers } from '../../transcripts/fillers';
import { trimEndOf } from '../../util/text';
import { contentWords } from '../extractive/content-words';
import { chapterTitle } from './chapter';
import type { RankedSentence } from './offline';

/** A title from the central sentence keeps at most this many words. */
export const PHRASE_WORDS = 6;
/** A phrase must be said at least this often in a chapter to name it, a single word once more. */
const LEAST_SAID = 2;
/** How much more a phrase of two words counts than one word said as often. */
const PHRASE_WEIGHT = 2.5;
/** At least one in this many of a term's sayings must be as a noun for it to name a chapter. */
const NOMINAL_SHARE = 3;
/** Sentences shorter than this are no title's source. */
const SENTENCE_MIN_WORDS = 5;
// Single words that say nothing about a subject: adjectives, verbs and vague nouns of speech the
// stopword list keeps as content. A word ending in -ing, -ly or -ed is mostly a verb or adverb.
const VAGUE = new Set(
  `able actual add adjust already another anyway apply bad better best big bigger build
  calculate call came certain change come course different easy else even example fact few find
  give goes good great hard happen huge idea important include interesting keep large last lots
  move need next nice ones part people point problem produce put question quickly real reason
  run says seem show simple small start stop sure take tell thank time times try turn use whole
  work works write`.split(/\s+/),
);
const VERB_LIKE = /(?:ing|ly|ed)$/;
// What a noun phrase follows: determiners, numbers and prepositions ("the kernel", "two layers",
// "of images"). A term at the end of content words said after one of these is said as a noun.
const NOUN_LEADS = new Set(
  `a an the this that these those my your our their his her its some any each every no another
  such what which whose two three four five several many few more most all both of in on with
  for about from into by between through than over under within without`.split(/\s+/),
);

/** The unit a title may name: one word or two side by side, how often it is said, and how. */
interface Candidate {
  key: string;
  words: number;
  count: number;
  /**
   * How it is mostly written (Boyer and Moore's majority vote: `form` gains a vote when written
   * so, loses one otherwise, and is replaced at none), and whether it was written in lowercase
   * too ("Kernels" at a sentence's start, "kernels" elsewhere).
   */
  form: string;
  votes: number;
  lowercase: boolean;
  /** How often it ends content words said after a determiner or preposition (as a noun). */
  nominal: number;
}

/** Whether a word may name a chapter on its own (cached: a text repeats its words). */
const namedWords = new Map<string, boolean>();
const named = (word: string) => {
  let is = namedWords.get(word);
  if (is === undefined) {
    const lower = word.toLowerCase();
    is = !VAGUE.has(lower) && !VERB_LIKE.test(lower);
    // Bounded: a process that reads many transcripts keeps only the most recent words.
    if (namedWords.size >= 50_000) namedWords.clear();
    namedWords.set(word, is);
  }
  return is;
};

/**
 * The candidates of a stretch of sentences, in one pass over their content words: each word,
 * and each pair of content words side by side ("kernel convolutions" names a thing; "adjust
 * weights" or "even better" does not). `terms` caches the words' terms across the stretches.
 */
function candidatesOf(
  sentences: readonly RankedSentence[],
  terms: Map<string, string>,
): Map<string, Candidate> {
  const found = new Map<string, Candidate>();
  const visit = (key: string, words: number, written: string, nominal: boolean) => {
    let candidate = found.get(key);
    if (!candidate) {
      candidate = { key, words, count: 0, form: written, votes: 0, lowercase: false, nominal: 0 };
      found.set(key, candidate);
    }
    candidate.count++;
    if (nominal) candidate.nominal++;
    if (written === candidate.form) candidate.votes++;
    else if (candidate.votes > 0) candidate.votes--;
    else {
      candidate.form = written;
      candidate.votes = 1;
    }
    if (!candidate.lowercase && written === written.toLowerCase()) candidate.lowercase = true;
  };
  for (const sentence of sentences) {
    const words = contentWords(sentence.text, terms);
    // Whether the run of content words around each word was led by a determiner or preposition.
    let led = false;
    words.forEach((word, i) => {
      const previous = words[i - 1];
      if (!previous || previous.position !== word.position - 1) {
        led = NOUN_LEADS.has(word.previous.toLowerCase());
      }
      const next = words[i + 1];
      const endsRun = !next || next.position !== word.position + 1;
      if (named(word.word)) visit(word.term, 1, word.word, led && endsRun);
      if (
        next &&
        next.position === word.position + 1 &&
        next.term !== word.term &&
        !VAGUE.has(word.word.toLowerCase()) &&
        named(next.word)
      ) {
        const after = words[i + 2];
        const nominal = led && (!after || after.position !== next.position + 1);
        visit(`${word.term} ${next.term}`, 2, `${word.word} ${next.word}`, nominal);
      }
    });
  }
  return found;
}

/** How a candidate is shown: lowercase when only a sentence start capitalised it. */
function shownForm(candidate: Candidate): string {
  const lower = candidate.form.toLowerCase();
  return candidate.lowercase && candidate.form.slice(1) === lower.slice(1) ? lower : candidate.form;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The most central sentence's opening, without its fillers, cut at a clause end or a word
 * boundary after PHRASE_WORDS words. */
function phraseTitle(sentences: readonly RankedSentence[]): string {
  let best: RankedSentence | undefined;
  for (const sentence of sentences) {
    if (sentence.words >= SENTENCE_MIN_WORDS && (!best || sentence.score > best.score)) {
      best = sentence;
    }
  }
  if (!best) return '';
  const words = withoutFillers(best.text).split(/\s+/);
  let cut = Math.min(words.length, PHRASE_WORDS);
  const clause = words.slice(0, cut).findIndex((word, i) => i >= 2 && /[,;:.!?]$/.test(word));
  if (clause >= 0) cut = clause + 1;
  const phrase = trimEndOf(words.slice(0, cut).join(' '), ',;:.!?…');
  return cut < words.length ? `${phrase}…` : phrase;
}

/** Whether a candidate may name a chapter: said often enough, and said as a noun. */
const nameable = (candidate: Candidate) =>
  candidate.count >= LEAST_SAID + (candidate.words === 1 ? 1 : 0) &&
  candidate.nominal >= (candidate.words === 1 ? 2 : 1) &&
  candidate.nominal * NOMINAL_SHARE >= candidate.count;

/**
 * A title for each stretch of sentences (`parts`: the sentences of each chapter): its best key
 * term said as a noun (a phrase counts for more), shown as the speaker wrote it, and not one an
 * earlier chapter is titled by; its central sentence's opening when no term will do.
 */
export function titlesOf(parts: readonly (readonly RankedSentence[])[]): string[] {
  const terms = new Map<string, string>();
  const found = parts.map((sentences) => candidatesOf(sentences, terms));
  const spread = new Map<string, number>();
  for (const candidates of found) {
    for (const key of candidates.keys()) spread.set(key, (spread.get(key) ?? 0) + 1);
  }
  const taken = new Set<string>();
  return found.map((candidates, index) => {
    let best: Candidate | undefined;
    let bestValue = 0;
    for (const candidate of candidates.values()) {
      if (taken.has(candidate.key) || !nameable(candidate)) continue;
      // A phrase counts for a little more than its words: it names the thing more precisely.
      const value =
        candidate.count *
        Math.log(1 + parts.length / (spread.get(candidate.key) ?? 1)) *
        (candidate.words === 2 ? PHRASE_WEIGHT : 1);
      if (value > bestValue || (value === bestValue && best && candidate.key < best.key)) {
        best = candidate;
        bestValue = value;
      }
    }
    if (best) taken.add(best.key);
    return chapterTitle(
      best ? capitalised(shownForm(best)) : capitalised(phraseTitle(parts[index] ?? [])),
    );
  });
}
