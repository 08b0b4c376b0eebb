// Lines that start with a moment of the video: chapters in a description ("0:00 Intro",
// "(12:30) - Results") and key points in a model's answer ("- **[1:23]** Kernels find edges").
// Both are untrusted text, so they are read by a scanner that looks at each character at most
// twice: a regular expression with neighbouring quantifiers over the same characters (`\s*`
// then `[-:]?\s*`) retries every split of a run of spaces, and a line of 40,000 spaces held the
// event loop for seconds.

/** What may surround the time on a line of one kind. */
export interface TimedLineForm {
  /** A list marker may come first: "-", "*", "•", "3." or "3)". */
  bullets: boolean;
  /** The time may be in bold: "**[1:23]**". */
  bold: boolean;
  /** Characters that may stand between the time and the text ("-", ":"...). */
  separators: string;
}

/** A timed line: its time as written (`m:ss`, `h:mm:ss`; parse it with parseTimestamp) and text. */
export interface TimedLine {
  time: string;
  text: string;
}

/** Chapter lines as YouTube reads them: a time, maybe in brackets, then the title. */
export const CHAPTER_FORM: TimedLineForm = { bullets: false, bold: false, separators: '-–—:|' };
/** Key point lines as models write them, with the markdown they add. */
export const KEY_POINT_FORM: TimedLineForm = { bullets: true, bold: true, separators: '-–—:' };

const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';
const SPACE = /\s/;
const isSpace = (char: string | undefined) =>
  char === ' ' || char === '\t' || (char !== undefined && SPACE.test(char));

function skipSpaces(line: string, at: number): number {
  let i = at;
  while (isSpace(line[i])) i++;
  return i;
}

function skipDigits(line: string, at: number): number {
  let i = at;
  while (isDigit(line[i])) i++;
  return i;
}

/** After a list marker ("-", "*", "•", "3.", "12)") and its spaces; `at` when there is none. */
function skipBullet(line: string, at: number): number {
  const char = line[at];
  if (char === '-' || char === '*' || char === '•') return skipSpaces(line, at + 1);
  const digits = skipDigits(line, at);
  const count = digits - at;
  if (count >= 1 && count <= 2 && (line[digits] === '.' || line[digits] === ')')) {
    return skipSpaces(line, digits + 1);
  }
  return at;
}

/** The end of a time (`m:ss`, `mmm:ss`, `h:mm:ss`) starting at `at`, or -1. */
function timeEnd(line: string, at: number): number {
  const first = skipDigits(line, at);
  if (first === at || line[first] !== ':') return -1;
  const second = skipDigits(line, first + 1);
  if (second === first + 1) return -1;
  if (line[second] === ':' && isDigit(line[second + 1])) {
    // h:mm:ss: hours of one or two digits, minutes of up to three, seconds of two.
    const third = skipDigits(line, second + 1);
    const ok = first - at <= 2 && second - first - 1 <= 3 && third - second - 1 === 2;
    return ok ? third : -1;
  }
  return first - at <= 3 && second - first - 1 === 2 ? second : -1;
}

/**
 * The time and text of a line that starts with a time (after a list marker, bold and an
 * opening bracket, where its form allows them), or undefined. Linear in the line's length.
 */
export function readTimedLine(line: string, form: TimedLineForm): TimedLine | undefined {
  let i = skipSpaces(line, 0);
  if (form.bullets) i = skipBullet(line, i);
  if (form.bold) {
    while (line[i] === '*') i++;
    i = skipSpaces(line, i);
  }
  if (line[i] === '[' || line[i] === '(') i++;
  const end = timeEnd(line, i);
  if (end < 0) return undefined;
  const time = line.slice(i, end);
  i = end;
  if (line[i] === ']' || line[i] === ')') i++;
  if (form.bold) while (line[i] === '*') i++;
  i = skipSpaces(line, i);
  const separator = line[i];
  if (separator !== undefined && form.separators.includes(separator)) i = skipSpaces(line, i + 1);
  const text = line.slice(i).trimEnd();
  return text === '' ? undefined : { time, text };
}

/** `m:ss`, or `h:mm:ss` from an hour on, as YouTube writes times. */
export function formatTimestamp(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`;
}

/** Milliseconds of `m:ss` or `h:mm:ss`; undefined for anything else. */
export function parseTimestamp(text: string): number | undefined {
  const match = /^(?:(\d{1,2}):)?(\d{1,3}):(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const [, hours, minutes, seconds] = match;
  if (Number(seconds) > 59 || (hours !== undefined && Number(minutes) > 59)) return undefined;
  return ((Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
}
