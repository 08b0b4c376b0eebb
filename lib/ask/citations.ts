// Citations: moments of the video an answer rests on. A model marks them `[m:ss]` in its
// answer; each mark is a claim, checked as key points are (one anchor for both): it is
// moved to the start of the caption near that time that says what the sentence before it says,
// or dropped. The answer keeps only the marks that survived, rewritten to their caption's time.
// A citation's moment is always a caption start of this transcript, and its link is built here
// from the video id: nothing a model (or a transcript, or a question) writes can point elsewhere.

import { createAnchor, keyPointUrl } from '../transcripts/anchors';
import { spokenText } from '../transcripts/spoken';
import { keysOf } from '../transcripts/terms';
import { formatTimestamp, parseTimestamp } from '../transcripts/timed-line';
import { cutText, trimEndOf } from '../util/text';
import type { Transcript } from '../youtube/types';
import type { Citation } from './schemas';

/** The captions quoted for a model's mark: from its caption on, about this many words. */
const QUOTE_WORDS = 40;
const QUOTE_CAPTIONS = 6;
/** A citation's text is cut past this many words or characters (one endless caption). */
const CITATION_WORDS = 80;
const CITATION_CHARS = 800;
/** An answer cites at most this many moments. */
export const MAX_CITATIONS = 10;
/** How much of the answer around a mark its claim is read from. */
const CLAIM_CHARS = 600;
/** How far after `[` a mark's `]` may be: "[1:02:03, 1:04:05, 1:06:07]" and a little more. */
const MARK_SPAN = 48;

/** The captions from `index` on, as a citation of a model's mark quotes them. */
function quoteAt(transcript: Transcript, index: number): string {
  const texts: string[] = [];
  let words = 0;
  for (let i = index; i < transcript.segments.length && texts.length < QUOTE_CAPTIONS; i++) {
    const text = transcript.segments[i]?.text.trim() ?? '';
    if (text === '') continue;
    texts.push(text);
    words += text.split(/\s+/).length;
    if (words >= QUOTE_WORDS) break;
  }
  return texts.join(' ');
}

/**
 * A citation: `startMs` (a caption's start, which the caller took from this video's
 * transcript), the video at that second, and what the captions from there say (cut to about
 * two sentences). The only way a citation is made, offline or from a model's mark.
 */
export function makeCitation(videoId: string, startMs: number, said: string): Citation {
  return {
    text: cutText(said.trim(), CITATION_WORDS, CITATION_CHARS),
    start_seconds: startMs / 1000,
    url: keyPointUrl(videoId, startMs),
  };
}

/**
 * A run of marks in an answer: `[1:23]`, `[1:23, 4:56]`; where it is and the times it gives (a
 * time that is no time, such as 99:99, is undefined: its mark is dropped like any wrong one).
 */
interface Mark {
  start: number;
  end: number;
  times: (number | undefined)[];
}

/** A time as marks write it, read and checked: `m:ss` or `h:mm:ss` (parseTimestamp says if it
 * is one: 99:99 is not). */
const TIME_LIKE = /^\s*(?:\d{1,2}:)?\d{1,3}:\d{2}\s*$/;
/**
 * What passes for a time without being written as one: digits of any script (Arabic-Indic
 * `١:٢٣`, fullwidth `１：２３`, mathematical bold), colons of other forms, other counts of digits
 * or parts (`0:4`, `1:00:00:00`), fullwidth brackets (`［1:23］`). A mark of these is read as a mark and dropped, never made a
 * citation: an answer never shows a time that links nowhere.
 */
const TIME_LOOKALIKE =
  /^\s*\p{Nd}{1,6}(?:\s*[:\uFF1A\uFE13\uFE55\u2236\uA789\u02D0\u02F8]\s*\p{Nd}{1,6}){1,5}\s*$/u;
/** What parts a mark's times: commas and semicolons of several scripts, range dashes. */
const TIME_SEPARATORS = /[,;\u3001\uFF0C\uFF1B\u060C\u061B\-\u2013\u2014]/;
/** Fullwidth brackets, found as ASCII ones (one UTF-16 unit each: positions stay); their marks
 * are look-alikes. */
const FULLWIDTH_BRACKETS = /[\uFF3B\uFF3D]/g;

/**
 * The marks of a text, in order: true ones and look-alikes (whose times are undefined).
 * Linear: the next `]` is looked for once and kept until a `[` passes it, and a mark spans at
 * most MARK_SPAN characters.
 */
function marksOf(text: string): Mark[] {
  const answer = text.replace(FULLWIDTH_BRACKETS, (bracket) => (bracket === '\uFF3B' ? '[' : ']'));
  const marks: Mark[] = [];
  let close = -1;
  for (let open = answer.indexOf('['); open >= 0; open = answer.indexOf('[', open + 1)) {
    if (close <= open) close = answer.indexOf(']', open + 1);
    if (close < 0) break;
    if (close - open > MARK_SPAN) continue;
    const parts = answer.slice(open + 1, close).split(TIME_SEPARATORS);
    if (!parts.every((part) => TIME_LIKE.test(part) || TIME_LOOKALIKE.test(part))) continue;
    const ascii = text[open] === '[' && text[close] === ']';
    const times = parts.map((part) =>
      ascii && TIME_LIKE.test(part) ? parseTimestamp(part) : undefined,
    );
    marks.push({ start: open, end: close + 1, times });
    open = close;
  }
  return marks;
}

/** `head`, the text before a dropped mark, without the spaces that led to it (no gap is left
 * before the full stop). */
const beforeDropped = (head: string) => trimEndOf(head, ' \t');

/**
 * `text` without any mark, true or look-alike, each with the spaces before it: for captions
 * quoted into an answer, whose only marks are those of its own citations.
 */
export function withoutMarks(text: string): string {
  let kept = '';
  let last = 0;
  for (const mark of marksOf(text)) {
    kept += beforeDropped(text.slice(last, mark.start));
    last = mark.end;
  }
  return kept + text.slice(last);
}

/**
 * What an offline answer shows of a citation's captions: without marks (they would link
 * nowhere), cues or fillers ("Um, so the CNN, um, is 98% accurate" -> "The CNN is 98%
 * accurate"). The citation keeps the captions' words; the answer only ever leaves some out, so
 * its sentences still anchor where the citation is (createAnchor reads no filler as a term).
 */
export function quotedInAnswer(text: string): string {
  const quoted = withoutMarks(text);
  const spoken = spokenText(quoted);
  return spoken === '' ? quoted : spoken;
}

const SENTENCE_ENDS = '.!?…\n';
const isTrailing = (char: string | undefined) =>
  char !== undefined && (SENTENCE_ENDS.includes(char) || /\s/u.test(char));

/** The last sentence of `text` (with its own end), scanning back once: linear in it. */
function lastSentence(text: string): string {
  let i = text.length - 1;
  while (i >= 0 && isTrailing(text[i])) i--;
  while (i >= 0 && !SENTENCE_ENDS.includes(text[i] as string)) i--;
  return text.slice(i + 1);
}

/** The first sentence of `text`. */
function firstSentence(text: string): string {
  let i = 0;
  while (i < text.length && !SENTENCE_ENDS.includes(text[i] as string)) i++;
  return text.slice(0, i);
}

/**
 * What a mark claims the video says: the sentence it stands in (before its full stop), or the
 * one it opens when it comes first ("[1:23] Kernels find edges."). `before` is the answer before
 * the mark (earlier marks' digits are no terms), `after` the text up to the next mark.
 */
function claimOf(before: string, after: string): string {
  const last = before.trimEnd().at(-1);
  const opens = last === undefined || SENTENCE_ENDS.includes(last);
  const opened = firstSentence(after);
  if (opens && keysOf(opened).size > 0) return opened;
  const ended = lastSentence(before);
  return keysOf(ended).size > 0 ? ended : opened;
}

/** An answer whose marks were checked, and the moments it cites. */
export interface CheckedAnswer {
  answer: string;
  citations: Citation[];
}

/**
 * Checks every `[m:ss]` mark of a model's answer against the transcript: a mark whose sentence
 * a caption near its time says is moved to that caption's start; any other is dropped. The
 * answer is returned with the surviving marks (rewritten) and the others removed, with one
 * citation per cited caption, in the order the answer first cites them (at most MAX_CITATIONS;
 * marks beyond are dropped too).
 */
export function checkCitations(
  answer: string,
  videoId: string,
  transcript: Transcript,
): CheckedAnswer {
  const anchor = createAnchor(transcript);
  const marks = marksOf(answer);
  const cited = new Map<number, Citation>();
  let text = '';
  let last = 0;
  marks.forEach((mark, i) => {
    // A sentence's worth on either side: what a claim can be, whatever the answer's length.
    const before = answer.slice(Math.max(0, mark.start - CLAIM_CHARS), mark.start);
    const after = answer.slice(
      mark.end,
      Math.min(marks[i + 1]?.start ?? answer.length, mark.end + CLAIM_CHARS),
    );
    const claim = claimOf(before, after);
    const kept: number[] = [];
    for (const atMs of mark.times) {
      const index = atMs === undefined ? undefined : anchor({ text: claim, atMs });
      if (index === undefined || kept.includes(index)) continue;
      if (!cited.has(index) && cited.size >= MAX_CITATIONS) continue;
      kept.push(index);
      if (!cited.has(index)) {
        const startMs = transcript.segments[index]?.offsetMs ?? 0;
        cited.set(index, makeCitation(videoId, startMs, quoteAt(transcript, index)));
      }
    }
    const head = answer.slice(last, mark.start);
    if (kept.length === 0) {
      text += beforeDropped(head);
    } else {
      const times = kept.map((index) => formatTimestamp(transcript.segments[index]?.offsetMs ?? 0));
      text += `${head}[${times.join(', ')}]`;
    }
    last = mark.end;
  });
  text += answer.slice(last);
  return { answer: text.trim(), citations: [...cited.values()] };
}
