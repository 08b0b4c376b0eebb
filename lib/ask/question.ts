// A question as the cache knows it: two askings that differ only in case, spacing or Unicode
// form (fullwidth letters, ligatures, composed or decomposed accents) are one question, and get
// one answer.

/**
 * The question in its comparable form: NFKC, case-folded (upper then lower case, which folds
 * "ß" and "ẞ" to "ss" as full case folding does), whitespace runs as one space, trimmed.
 */
export function normaliseQuestion(question: string): string {
  return question
    .normalize('NFKC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC')
    .replace(/\s+/gu, ' ')
    .trim();
}
