// How the API counts words (`word_count`): runs of non-whitespace. Kept apart from the
// summarizers so that counting does not load a language model.

/** Words as the API counts them: runs of non-whitespace. */
export function countWords(text: string): number {
  let n = 0;
  for (const part of text.split(/\s+/)) if (part) n++;
  return n;
}
