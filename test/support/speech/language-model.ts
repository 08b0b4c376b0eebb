// What the test recognizer expects to hear: a dictionary of the script's words (their lines of
// cmudict-en-us.dict, alternate pronunciations included) and a bigram language model of the
// script (ARPA text, absolute discounting backed off to the script's word frequencies).
//
// Why a model of the script by default (`script`), not pocketsphinx's general en-us model:
// espeak-ng is not a human voice. The general model and dictionary got 39% of the lecture's
// words wrong with the best voice (up to 80% with others), at 0.2x real time. With the
// script's words only (`vocabulary`: their dictionary lines and the general en-us.lm.bin) it
// got 22-24% wrong, and the same audio cut into Opus or AAC parts (2-4 cuts, 16 ways) came
// within 3.2 points of the whole. With the script's bigrams it got 6-7% wrong and the parts
// came within 1.9 points (mostly below the whole), leaving most of the 5 points a test allows
// to what it looks for. It is still the real recognizer over the real audio: any word may
// follow any other (the bigrams back off to every word), the times are its own alignment, and
// audio that is missing, doubled or garbled shows as deleted, inserted or wrong words. A JSGF
// grammar of the sentences would be stricter still, but a part cut mid-sentence fits none of
// its sentences.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { POCKETSPHINX_MODEL_DIR } from './tools';
import { normalizeWords } from './wer';

export const CMUDICT = join(POCKETSPHINX_MODEL_DIR, 'cmudict-en-us.dict');
export const GENERAL_LM = join(POCKETSPHINX_MODEL_DIR, 'en-us.lm.bin');

/** The files pocketsphinx is given: `-dict` and `-lm`. */
export interface LanguageModel {
  dictPath: string;
  lmPath: string;
  /** The script's distinct words. */
  vocabulary: string[];
}

/** Each word of a pocketsphinx dictionary and its lines (`word PH ...`, `word(2) PH ...`). */
export function readDictionary(path = CMUDICT): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const word = /^([^\s(]+)(?:\(\d+\))?\s/.exec(line)?.[1];
    if (!word) continue;
    const lines = entries.get(word);
    if (lines) lines.push(line);
    else entries.set(word, [line]);
  }
  return entries;
}

/** The distinct words of `sentences` (normalized as the word error rate compares them). */
export function vocabularyOf(sentences: readonly string[]): string[] {
  return [...new Set(sentences.flatMap((sentence) => normalizeWords(sentence)))].sort();
}

/** The words of `sentences` that `dictionary` lacks (none: pocketsphinx can say them all). */
export function unknownWords(
  sentences: readonly string[],
  dictionary: ReadonlyMap<string, readonly string[]> = readDictionary(),
): string[] {
  return vocabularyOf(sentences).filter((word) => !dictionary.has(word));
}

/**
 * How much the recognizer knows of what it will hear: `script`, the words of the sentences and
 * which follows which (a bigram model of them); `vocabulary`, their words only (a dictionary of
 * them with pocketsphinx's general en-us.lm.bin, whose other words it ignores).
 */
export type Expectation = 'script' | 'vocabulary';

/**
 * Writes the dictionary (and for `script` the language model) of `sentences` into `dir`.
 * @throws Error naming the words the en-us dictionary lacks.
 */
export function writeLanguageModel(
  sentences: readonly string[],
  dir: string,
  expectation: Expectation = 'script',
): LanguageModel {
  const dictionary = readDictionary();
  const missing = unknownWords(sentences, dictionary);
  if (missing.length > 0) {
    throw new Error(`not in ${CMUDICT}: ${missing.join(', ')} (say them in other words)`);
  }
  const vocabulary = vocabularyOf(sentences);
  const dictPath = join(dir, 'script.dict');
  const lines = vocabulary.flatMap((word) => dictionary.get(word) ?? []);
  writeFileSync(dictPath, `${lines.join('\n')}\n`);
  if (expectation === 'vocabulary') return { dictPath, lmPath: GENERAL_LM, vocabulary };
  const lmPath = join(dir, 'script.arpa');
  writeFileSync(lmPath, bigramArpa(sentences));
  return { dictPath, lmPath, vocabulary };
}

/** The discount taken from each seen bigram's count and given to the backed-off unigrams. */
const DISCOUNT = 0.5;
/** The share of unigram probability spread evenly over the vocabulary. */
const UNIFORM_SHARE = 0.1;

/**
 * A bigram language model of `sentences` in ARPA text format (log10 probabilities), each
 * sentence between `<s>` and `</s>`.
 */
export function bigramArpa(sentences: readonly string[]): string {
  const unigramCounts = new Map<string, number>();
  const followers = new Map<string, Map<string, number>>();
  for (const sentence of sentences) {
    const words = ['<s>', ...normalizeWords(sentence), '</s>'];
    words.forEach((word, index) => {
      if (index === 0) return;
      unigramCounts.set(word, (unigramCounts.get(word) ?? 0) + 1);
      const history = words[index - 1] as string;
      const next = followers.get(history) ?? new Map<string, number>();
      next.set(word, (next.get(word) ?? 0) + 1);
      followers.set(history, next);
    });
  }
  const total = [...unigramCounts.values()].reduce((sum, count) => sum + count, 0);
  const unigram = new Map(
    [...unigramCounts].map(([word, count]) => [
      word,
      (1 - UNIFORM_SHARE) * (count / total) + UNIFORM_SHARE / unigramCounts.size,
    ]),
  );
  const bigrams: string[] = [];
  const backoff = new Map<string, number>();
  for (const [history, next] of [...followers].sort(([a], [b]) => a.localeCompare(b))) {
    const seen = [...next.values()].reduce((sum, count) => sum + count, 0);
    const spared = (DISCOUNT * next.size) / seen;
    let listed = 0;
    let unigramsListed = 0;
    for (const [word, count] of [...next].sort(([a], [b]) => a.localeCompare(b))) {
      const fallback = unigram.get(word) as number;
      const probability = (count - DISCOUNT) / seen + spared * fallback;
      listed += probability;
      unigramsListed += fallback;
      bigrams.push(`${log10(probability)} ${history} ${word}`);
    }
    // What the listed bigrams left, spread over the unlisted words as the unigrams weigh them.
    backoff.set(history, unigramsListed < 1 ? (1 - listed) / (1 - unigramsListed) : 1);
  }
  const unigrams = [
    `-99 <s> ${log10(backoff.get('<s>') ?? 1)}`,
    ...[...unigram]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([word, p]) => `${log10(p)} ${word} ${log10(backoff.get(word) ?? 1)}`),
  ];
  return [
    '\\data\\',
    `ngram 1=${unigrams.length}`,
    `ngram 2=${bigrams.length}`,
    '',
    '\\1-grams:',
    ...unigrams,
    '',
    '\\2-grams:',
    ...bigrams,
    '',
    '\\end\\',
    '',
  ].join('\n');
}

const log10 = (value: number) => Math.log10(value).toFixed(6);
