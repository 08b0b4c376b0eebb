// Texts as the page shows them: a summary's or an answer's paragraphs, a citation's excerpt.

/** A text's paragraphs (blank lines between them), as the summary and answers are written. */
export function paragraphsOf(text: string): string[] {
  return text.split(/\n{2,}/).filter((paragraph) => paragraph.trim() !== '');
}

/** How much of a citation's quote is shown (its link opens the rest). */
export const CITATION_CHARS = 160;

/**
 * The start of a long text, cut at a word and marked with an ellipsis: a citation quotes the
 * captions from its moment on, which the answer often already holds in full.
 */
export function excerpt(text: string, maxChars: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return trimmed;
  const cut = trimmed.slice(0, maxChars + 1);
  const atWord = cut.lastIndexOf(' ');
  const kept = atWord > 0 ? cut.slice(0, atWord) : trimmed.slice(0, maxChars);
  return `${kept.replace(/[\s,;:]+$/, '')}…`;
}
