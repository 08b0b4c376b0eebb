// The English language model of the offline summarizer (wink-nlp's lite web model): sentence
// boundaries and the Porter2 stemmer. Loaded once per process, on first use: a cold start that
// never summarises offline skips its ~0.1-0.2 s of CPU.
import winkNLP from 'wink-nlp';
import { requireShipped } from '../../shipped';

type Model = typeof import('wink-eng-lite-web-model');

export interface Language {
  nlp: ReturnType<typeof winkNLP>;
  stemWord: (word: string) => string;
}

let language: Language | undefined;

/** The English model, loaded on first use. */
export function english(): Language {
  if (language) return language;
  const model = requireShipped<{ default?: Model } & Model>('wink-eng-lite-web-model');
  const loaded = model.default ?? model;
  // The model's Porter2 stemmer; typed `unknown` by wink, so check it rather than trust a cast.
  const porter2 = loaded.addons.stem;
  language = {
    // Sentence boundaries only: the full pipe (POS, NER, negation, sentiment) triples the cost
    // of readDoc (~12 ms vs ~4 ms for 3,300 words) and scoring does not use any of it.
    nlp: winkNLP(loaded, ['sbd']),
    stemWord:
      typeof porter2 === 'function' ? (porter2 as (word: string) => string) : (word) => word,
  };
  return language;
}
