// A transcript as passages a question can be matched against: runs of consecutive captions of
// a few sentences each, searched with BM25+ (minisearch) over the terms that tell passages apart
// (the same terms key points are anchored by, so a citation and a key point agree). A passage starts where its first
// caption starts: that is the moment a citation of it opens, never any other.
import MiniSearch from 'minisearch';
import { termsOf } from '../transcripts/terms';
import type { Transcript } from '../youtube/types';

/** Consecutive captions of one transcript, read as one piece. */
export interface Passage {
  /** Its place among the transcript's passages. */
  index: number;
  /** The captions' text, joined by spaces. */
  text: string;
  /** The start of its first caption. */
  startMs: number;
}

/** A passage that matches a question. */
export interface PassageMatch {
  passage: Passage;
  /** BM25+ score (only comparable within one search). */
  score: number;
  /** How many of the question's distinct terms it contains. */
  matched: number;
}

export interface PassageSearch {
  /** The question's distinct terms (none: nothing in it can be looked for). */
  terms: string[];
  /** Passages with at least one of them, best first. */
  matches: PassageMatch[];
}

// A passage closes at the end of a sentence once it has PASSAGE_WORDS words, or at
// PASSAGE_MAX_WORDS whatever the punctuation (automatic captions have none): a few sentences,
// long enough to answer something, short enough to say where.
const PASSAGE_WORDS = 40;
const PASSAGE_MAX_WORDS = 80;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;
/** Terms of this many letters count: "CNN", "GPU" and "RAM" are what questions are about. */
export const MIN_TERM_LETTERS = 3;

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The transcript's passages, in video order; every caption is in exactly one. */
export function passagesOf(transcript: Transcript): Passage[] {
  const passages: Passage[] = [];
  let texts: string[] = [];
  let startMs = 0;
  let words = 0;
  const close = () => {
    if (texts.length === 0) return;
    passages.push({ index: passages.length, text: texts.join(' '), startMs });
    texts = [];
    words = 0;
  };
  for (const segment of transcript.segments) {
    const text = segment.text.trim();
    if (text === '') continue;
    if (texts.length === 0) startMs = segment.offsetMs;
    texts.push(text);
    words += wordCount(text);
    if (words >= PASSAGE_MAX_WORDS || (words >= PASSAGE_WORDS && SENTENCE_END.test(text))) close();
  }
  close();
  return passages;
}

const tokenize = (text: string) => termsOf(text, MIN_TERM_LETTERS);

/**
 * The passages that contain the question's terms, scored by BM25+ over all passages (a term
 * the whole video repeats counts for little, a rare one for much). Linear in the transcript.
 */
export function searchPassages(passages: readonly Passage[], question: string): PassageSearch {
  const terms = [...new Set(tokenize(question))];
  if (terms.length === 0 || passages.length === 0) return { terms, matches: [] };
  const index = new MiniSearch<Passage>({
    idField: 'index',
    fields: ['text'],
    tokenize,
    // The terms are already what the index should hold (termsOf lowers and cuts them).
    processTerm: (term) => term,
    searchOptions: { combineWith: 'OR' },
  });
  index.addAll(passages);
  const matches = index.search(terms.join(' ')).map((result) => ({
    passage: passages[result.id as number] as Passage,
    score: result.score,
    matched: new Set(result.queryTerms).size,
  }));
  return { terms, matches };
}

/** At most this many passages answer a question offline. */
const MAX_CITED = 3;
/** ...each scoring at least this share of the best one, so a weak tail is left out. */
const RELATIVE_SCORE = 0.4;

/**
 * The passages that answer a question, best first: each contains at least half of its distinct
 * terms (one of one or two, two of three or four...), and scores near the best such passage.
 * Empty when none does: the video does not seem to address the question.
 */
export function answeringPassages(search: PassageSearch): PassageMatch[] {
  const needed = Math.max(1, Math.ceil(search.terms.length / 2));
  const relevant = search.matches.filter((match) => match.matched >= needed);
  const best = relevant[0]?.score ?? 0;
  return relevant.filter((match) => match.score >= RELATIVE_SCORE * best).slice(0, MAX_CITED);
}
