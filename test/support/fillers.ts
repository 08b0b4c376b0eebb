// What filler removal may take out of a sentence, for tests that check it took nothing else.

/** Every word a filler rule may take away. */
export const FILLER_WORDS = new Set(
  'um umm uh uhh uhm erm er hmm mmm ah eh ok okay right alright all yeah yes oh well now like you know i mean so and'.split(
    ' ',
  ),
);

/** The words of a text as compared: lowercase, punctuation aside. */
export const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/**
 * The words `original` lost on the way to `shown`, in order ('restart' for a word said twice
 * around a filler, "it's, you know, it's", one saying of which went), or undefined when `shown`
 * is not `original` with words taken out (a word added, changed or moved).
 */
function droppedWords(original: string, shown: string): string[] | undefined {
  const from = wordsOf(original);
  const kept = wordsOf(shown);
  const lost: string[] = [];
  let k = 0;
  for (const [i, word] of from.entries()) {
    if (word === kept[k]) k++;
    else {
      const restart = [1, 3].some((d) => from[i - d] === word || from[i + d] === word);
      lost.push(restart ? 'restart' : word);
    }
  }
  return k === kept.length ? lost : undefined;
}

/** Whether every word `original` lost on the way to `shown` is a filler (or a restart). */
export function onlyFillersDropped(original: string, shown: string): boolean {
  const lost = droppedWords(original, shown);
  return lost?.every((word) => word === 'restart' || FILLER_WORDS.has(word)) ?? false;
}
