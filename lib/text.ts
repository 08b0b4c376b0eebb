// Small string helpers for untrusted text (captions, model answers), written as loops where the
// obvious regular expression backtracks: `/[,;]+$/` starts again at every character of a long
// run that does not reach the end, so a caption of 40,000 commas held the event loop for
// seconds (quadratic). test/unit/regex-safety.test.ts checks the patterns that remain.

/** `text` without the characters of `chars` at its end. Linear in the length of that run. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}
