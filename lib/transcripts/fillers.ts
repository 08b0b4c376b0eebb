// Discourse fillers: the "Ok, so", "Um," and "And" that open spoken sentences, and the "um" and
// ", you know," said inside them, which make an extractive summary or an offline answer read
// like a transcript. Only whole words from the lists below are removed, with the commas that set
// them off; every other word stays as it was said (a first word is capitalised). Scanners over
// words rather than regular expressions: each filler has its own rule about the commas around
// it, and a few phrases ("and so on", "you know the answer") must survive.

import { trimEndOf } from '../util/text';

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

/** A hesitation written in capitals is a name ("UH", a university), not a sound. */
const isName = (word: string) =>
  word.length > 1 && word === word.toUpperCase() && !/^ok(?:ay)?$/i.test(word);

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
  if (ALWAYS.has(word)) return isName(match.groups.word ?? '') ? undefined : match[0].length;
  if (WITH_COMMA.has(word)) return comma ? match[0].length : undefined;
  if (CONNECTIVES.has(word) && !PROTECTED.some((phrase) => phrase.test(text))) {
    return match[0].length;
  }
  return undefined;
}

/** Sounds of hesitation: never words, wherever they are said ("trained, um, is"); not "mm" (a
 * unit inside a sentence) nor "er". */
const HESITATIONS = new Set(['um', 'umm', 'uh', 'uhh', 'uhm', 'erm', 'hmm', 'mmm']);
/** Phrases that fill only between commas ("give you, you know, two thousand"): without the
 * commas they may be meant ("you know the answer", "by the boundary I mean the edges"). */
const PARENTHETICAL = [
  ['you', 'know'],
  ['i', 'mean'],
];
/** What ends a word as punctuation: a clause's comma or a sentence's end. */
const TRAILING = ',;:.!?…';
const SENTENCE_END = /[.!?…]$/u;

/** A word's text without its trailing punctuation, lowercased, and that punctuation. */
function partsOf(word: string): { core: string; mark: string } {
  const bare = trimEndOf(word, TRAILING);
  return { core: bare.toLowerCase(), mark: word.slice(bare.length) };
}

/**
 * How many words from `i` on are one filler: a hesitation, or a parenthetical phrase opened
 * by a comma (`commaBefore`) and closed by one or by the sentence's end; 0 when none.
 */
function fillerAt(words: readonly string[], i: number, commaBefore: boolean): number {
  const word = words[i] ?? '';
  const { core, mark } = partsOf(word);
  if (HESITATIONS.has(core) && !isName(trimEndOf(word, TRAILING))) return 1;
  if (!commaBefore || mark !== '') return 0;
  for (const phrase of PARENTHETICAL) {
    const last = partsOf(words[i + 1] ?? '');
    if (
      core === phrase[0] &&
      last.core === phrase[1] &&
      (last.mark === ',' || SENTENCE_END.test(last.mark))
    ) {
      return 2;
    }
  }
  return 0;
}

/** The word before a run of fillers, given the punctuation that closed the run. */
function joined(before: string, mark: string): string {
  const comma = before.endsWith(',');
  if (mark === '') return before;
  if (mark === ',') return comma ? before.slice(0, -1) : `${before},`;
  return (comma ? before.slice(0, -1) : before) + mark;
}

/**
 * `sentence` without the hesitations said inside it and the "you know" and "I mean" set off by
 * commas: a run of them goes with the commas around it ("trained, um, is" -> "trained is"), a
 * comma or sentence end after it moves to the word before ("difficult um, it's" -> "difficult,
 * it's"; "the answer, you know." -> "the answer."), and so does a word said again after it ("the,
 * um, the kernel" -> "the kernel"). No other word changes.
 */
function withoutInnerFillers(sentence: string): string {
  const words = sentence.split(/\s+/).filter(Boolean);
  const kept: string[] = [];
  let i = 0;
  while (i < words.length) {
    let end = i;
    for (let n = fillerAt(words, end, (kept.at(-1) ?? '').endsWith(',')); n > 0; ) {
      end += n;
      n = fillerAt(words, end, partsOf(words[end - 1] ?? '').mark === ',');
    }
    if (end === i) {
      kept.push(words[i] as string);
      i++;
      continue;
    }
    const before = kept.pop();
    // A word said again after the filler was a restart ("It's, you know, it's not"): once.
    const restart = before !== undefined && partsOf(before).core === partsOf(words[end] ?? '').core;
    if (before !== undefined && !restart) {
      kept.push(joined(before, partsOf(words[end - 1] ?? '').mark));
    }
    i = end;
  }
  return kept.join(' ');
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const wordsIn = (text: string) =>
  text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/** What follows the fillers that open `sentence`, whatever is left. */
function afterLeadingFillers(sentence: string): string {
  let text = sentence.trimStart();
  for (let cut = leadingFiller(text); cut !== undefined; cut = leadingFiller(text)) {
    text = text.slice(cut);
  }
  return text;
}

/**
 * `sentence` without the discourse fillers that open it ("Ok, so, this will be..." -> "This will
 * be..."), its first letter capitalised; the sentence as it is when nothing but fillers (or fewer
 * than two words) would be left.
 */
export function stripLeadingFillers(sentence: string): string {
  const text = afterLeadingFillers(sentence);
  if (text.length === sentence.trimStart().length) return sentence;
  if (wordsIn(text) < 2) return sentence;
  return capitalised(text);
}

/**
 * `sentence` as a summary or an answer shows it: without the fillers that open it or are said
 * inside it ("Um, so the CNN I trained, um, is 98% accurate." -> "The CNN I trained is 98%
 * accurate."); as it was said when fewer than two words would be left.
 */
export function withoutFillers(sentence: string): string {
  const inner = withoutInnerFillers(sentence);
  const result = stripLeadingFillers(inner);
  if (wordsIn(result) < 2) return sentence;
  return result === sentence ? sentence : capitalised(result);
}

/** What a sentence may end in and still say nothing ("So yeah.", "Uh, ok."); not "Yes." or
 * "Right.", which answer something. */
const SAYS_NOTHING = new Set([...ALWAYS, 'yeah', 'so', 'oh', 'well']);

/** Whether nothing but fillers is said in `sentence` ("Um?", "Ok, so, um.", "So yeah."). */
export function onlyFillers(sentence: string): boolean {
  const left = afterLeadingFillers(withoutInnerFillers(sentence))
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
  return left.length === 0 || (left.length === 1 && SAYS_NOTHING.has(partsOf(left[0] ?? '').core));
}

/** Whether `text` opens with a filler ("So watch", "You know, it's"; not "So far"). */
export const opensWithFiller = (text: string) => leadingFiller(text.trimStart()) !== undefined;
