// Captions run together (an offline answer's passages) as text to read: without the cues that
// are not speech ([offscreen], *laughs*), cut into sentences where the captions end one (a full
// stop, or a line that stopped without one before a capitalised filler: "that video You know,
// it's got" is two), and each sentence without its fillers; a sentence of fillers
// alone goes. Words are only ever taken out, never changed: what the captions say stays theirs.

import { cleanCaption, startsSentence } from './captions';
import { onlyFillers, opensWithFiller, withoutFillers } from './fillers';

const ENDS_SENTENCE = /[.!?…]["'”’)\]]*$/u;
/** What a closed sentence drops at its end before its full stop. */
const OPEN_ENDS = ',;:-–—';
/** Enough words to tell whether a filler opens what follows ("And so on" is no filler). */
const FILLER_WINDOW = 4;

/** A sentence ended without its full stop, closed with one ("this video" -> "this video."). */
function closed(words: string[]): string {
  const last = words.at(-1) ?? '';
  let end = last.length;
  while (end > 0 && OPEN_ENDS.includes(last[end - 1] as string)) end--;
  return [...words.slice(0, -1), `${last.slice(0, end)}.`].join(' ');
}

/** The sentences of `words`: at sentence ends, and before a capitalised filler that opens one. */
function sentencesOf(words: readonly string[]): string[] {
  const sentences: string[] = [];
  let current: string[] = [];
  words.forEach((word, i) => {
    current.push(word);
    const next = words[i + 1];
    if (ENDS_SENTENCE.test(word)) {
      sentences.push(current.join(' '));
      current = [];
    } else if (
      next !== undefined &&
      startsSentence(next) &&
      opensWithFiller(words.slice(i + 1, i + 1 + FILLER_WINDOW).join(' '))
    ) {
      sentences.push(closed(current));
      current = [];
    }
  });
  if (current.length > 0) sentences.push(current.join(' '));
  return sentences;
}

/**
 * `text` (captions run together) as an offline answer shows it: cues out, sentences closed,
 * fillers out; empty when nothing but cues and fillers is said.
 */
export function spokenText(text: string): string {
  const words = cleanCaption(text).split(' ').filter(Boolean);
  const shown: string[] = [];
  for (const sentence of sentencesOf(words)) {
    if (onlyFillers(sentence)) continue;
    shown.push(withoutFillers(sentence));
  }
  const joined = shown.join(' ');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}
