// Titles of chapters made without a model: the key terms of each chapter, the words said often
// in it and seldom in the others (tf-idf over the chapters), phrases of two words first ("kernel
// convolutions", "house prices": side by side without a stopword between, they are nearly always
// names of things); or, for a chapter with no such words, its most central sentence cut to a
// phrase.
import { trimEndOf } from '../../util/text';
import { contentWords } from '../extractive/content-words';
import { stripLeadingFillers } from '../extractive/fillers';
import { chapterTitle } from './chapter';
import type { RankedSentence } from './offline';

/** Key terms in a title, at most. */
const TITLE_TERMS = 3;
/** A title from the central sentence keeps at most this many words. */
const PHRASE_WORDS = 8;
/** A phrase must be said at least this often in a chapter to name it, a single word once more. */
const LEAST_SAID = 2;
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
  const visit = (key: string, words: number, written: string) => {
    let candidate = found.get(key);
    if (!candidate) {
      candidate = { key, words, count: 0, form: written, votes: 0, lowercase: false };
      found.set(key, candidate);
    }
    candidate.count++;
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
    words.forEach((word, i) => {
      if (named(word.word)) visit(word.term, 1, word.word);
      const next = words[i + 1];
      if (
        next &&
        next.position === word.position + 1 &&
        next.term !== word.term &&
        !VAGUE.has(word.word.toLowerCase()) &&
        named(next.word)
      ) {
        visit(`${word.term} ${next.term}`, 2, `${word.word} ${next.word}`);
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

/** "Kernels, edges and pooling": names as a title, the first letter capitalised. */
function listTitle(names: readonly string[]): string {
  const list =
    names.length <= 1
      ? (names[0] ?? '')
      : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return list.charAt(0).toUpperCase() + list.slice(1);
}

/** The most central sentence's opening, cut at a clause end or after PHRASE_WORDS words. */
function phraseTitle(sentences: readonly RankedSentence[]): string {
  let best: RankedSentence | undefined;
  for (const sentence of sentences) {
    if (sentence.words >= SENTENCE_MIN_WORDS && (!best || sentence.score > best.score)) {
      best = sentence;
    }
  }
  if (!best) return '';
  const words = stripLeadingFillers(best.text).split(/\s+/);
  let cut = Math.min(words.length, PHRASE_WORDS);
  const clause = words.slice(0, cut).findIndex((word, i) => i >= 2 && /[,;:.!?]$/.test(word));
  if (clause >= 0) cut = clause + 1;
  const phrase = trimEndOf(words.slice(0, cut).join(' '), ',;:.!?…');
  return cut < words.length ? `${phrase}…` : phrase;
}

/**
 * A title for each stretch of sentences (`parts`: the sentences of each chapter): its best key
 * terms, phrases first, each shown as the speaker wrote it; its central sentence's opening when
 * no term is said often enough in it.
 */
export function titlesOf(parts: readonly (readonly RankedSentence[])[]): string[] {
  const terms = new Map<string, string>();
  const found = parts.map((sentences) => candidatesOf(sentences, terms));
  const spread = new Map<string, number>();
  for (const candidates of found) {
    for (const key of candidates.keys()) spread.set(key, (spread.get(key) ?? 0) + 1);
  }
  return found.map((candidates, index) => {
    const ranked: { candidate: Candidate; value: number }[] = [];
    for (const candidate of candidates.values()) {
      if (candidate.count < LEAST_SAID + (candidate.words === 1 ? 1 : 0)) continue;
      ranked.push({
        candidate,
        // A phrase counts for a little more than its words: it names the thing more precisely.
        value:
          candidate.count *
          Math.log(1 + parts.length / (spread.get(candidate.key) ?? 1)) *
          (candidate.words === 2 ? 1.5 : 1),
      });
    }
    ranked.sort((a, b) => b.value - a.value || (a.candidate.key < b.candidate.key ? -1 : 1));
    const chosen: Candidate[] = [];
    for (const { candidate } of ranked) {
      if (chosen.length >= TITLE_TERMS) break;
      // A word of a phrase already chosen (or a phrase of a word already chosen) adds nothing.
      const terms = candidate.key.split(' ');
      const overlaps = chosen.some((taken) =>
        taken.key.split(' ').some((term) => terms.includes(term)),
      );
      if (!overlaps) chosen.push(candidate);
    }
    const title =
      chosen.length > 0 ? listTitle(chosen.map(shownForm)) : phraseTitle(parts[index] ?? []);
    return chapterTitle(title);
  });
}
