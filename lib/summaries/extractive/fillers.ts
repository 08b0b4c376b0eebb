// Leading discourse fillers: the "Ok, so", "Um," and "And" that open spoken sentences and make an
// extractive summary read like a transcript. Only words at the very start are removed, and only
// whole words from the lists below; the words after them are never changed (the first one is
// capitalised). A scanner over words rather than one regular expression: each filler has its own
// rule about the comma after it, and a few phrases ("and so on") must survive.

/** Never a sentence's content at its start, comma or not ("Um, and", "Uh so"). */
const ALWAYS = new Set([
  'um',
  'uh',
  'umm',
  'uhm',
  'erm',
  'er',
  'ah',
  'eh',
  'hmm',
  'mm',
  'ok',
  'okay',
]);
/** Fillers when a comma follows them ("Right, so" but "Right now", "Well, look" but "Well
 * done", "You know, let's" but "You know what"). */
const WITH_COMMA = new Set([
  'right',
  'alright',
  'all right',
  'yeah',
  'yes',
  'oh',
  'well',
  'now',
  'like',
  'you know',
  'i mean',
]);
/** Connectives that open a sentence as a filler, with or without a comma ("So watch that video
 * first", "And these are fully connected"), unless one of PROTECTED follows. */
const CONNECTIVES = new Set(['so', 'and']);
/** What a connective starts rather than fills: "So far", "So many", "And so on". */
const PROTECTED = [
  /^so\s+(?:on|forth|far|much|many|long|called)\b/i,
  /^so-/i,
  /^and\s+so\s+(?:on|forth)\b/i,
  /^and\s+(?:the\s+like|vice\s+versa)\b/i,
];

// One leading word or two-word filler, its trailing comma and the spaces after it.
const LEADING = /^(?<word>(?:all\s+right|you\s+know|i\s+mean|[\p{L}']+))(?<comma>\s*,)?\s*/iu;

/** The filler at the start of `text` and how much of it to cut, or undefined. */
function leadingFiller(text: string): number | undefined {
  const match = LEADING.exec(text);
  if (!match?.groups) return undefined;
  const word = (match.groups.word ?? '').toLowerCase().replace(/\s+/g, ' ');
  const comma = match.groups.comma !== undefined;
  const rest = text.slice(match[0].length);
  // A word glued to punctuation other than a comma ("So?", "Right.") is the whole sentence.
  if (rest === '' || (!comma && /^[^\s\p{L}\p{N}"'“‘(]/u.test(rest))) return undefined;
  if (ALWAYS.has(word)) return match[0].length;
  if (WITH_COMMA.has(word)) return comma ? match[0].length : undefined;
  if (CONNECTIVES.has(word) && !PROTECTED.some((phrase) => phrase.test(text))) {
    return match[0].length;
  }
  return undefined;
}

/**
 * `sentence` without the discourse fillers that open it ("Ok, so, this will be..." -> "This will
 * be..."), its first letter capitalised; the sentence as it is when nothing but fillers (or fewer
 * than two words) would be left.
 */
export function stripLeadingFillers(sentence: string): string {
  let text = sentence.trimStart();
  for (let cut = leadingFiller(text); cut !== undefined; cut = leadingFiller(text)) {
    text = text.slice(cut);
  }
  if (text.length === sentence.trimStart().length) return sentence;
  if (text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length < 2) return sentence;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
