// JSON.parse as Steps (cooperative.ts): the same values and the same strictness (RFC 8259), but
// a document of megabytes is read in slices between which the event loop runs. JSON.parse holds
// the process for ~300 ms on a 50 MB transcription answer, and what the process does with a
// million values after it (validating, mapping) as long again; a server's answer is untrusted
// input, and the local host serves other requests meanwhile. Iterative (an explicit stack), so
// depth is bounded by MAX_DEPTH rather than the call stack; strings and numbers are read by
// JSON.parse and Number themselves, one value at a time.
import type { Steps } from './cooperative';

/** Deeper nesting than any answer we read is refused, as JSON.parse would overflow its stack. */
const MAX_DEPTH = 512;
/** Values read between two points where the work may pause. */
const VALUES_PER_STEP = 1_024;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

type Container =
  | { kind: 'array'; value: unknown[] }
  | { kind: 'object'; value: Record<string, unknown>; key: string | undefined };

/**
 * The value of a JSON text, as JSON.parse gives it (a `__proto__` key is an own property).
 * @throws SyntaxError where the text is not JSON.
 */
export function* parseJson(text: string): Steps<unknown> {
  let at = 0;
  const stack: Container[] = [];
  let count = 0;
  let root: unknown;

  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${at} of the JSON text`);
  };
  const skipSpace = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.test(text);
    at = WHITESPACE.lastIndex;
  };
  const readString = (): string => {
    // at is on the opening quote; the closing one is the first not escaped by a backslash.
    let end = text.indexOf('"', at + 1);
    let escaped = false;
    for (;;) {
      if (end < 0) fail('Unterminated string');
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === 92) slashes++;
      if (slashes % 2 === 0) break;
      escaped = true;
      end = text.indexOf('"', end + 1);
    }
    const raw = text.slice(at, end + 1);
    at = end + 1;
    // Escapes and control characters (which JSON refuses unescaped) are JSON.parse's to judge.
    if (!escaped && !/[\\\p{Cc}]/u.test(raw)) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      return fail('Bad string');
    }
  };
  const readScalar = (): unknown => {
    const char = text[at];
    if (char === '"') return readString();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(text);
    if (!match) return fail(char === undefined ? 'Unexpected end' : `Unexpected ${char}`);
    at = NUMBER.lastIndex;
    return Number(match[0]);
  };
  /** Puts a finished value where it belongs: in the container on top, or as the document. */
  const place = (value: unknown): void => {
    const top = stack.at(-1);
    if (!top) root = value;
    else if (top.kind === 'array') top.value.push(value);
    else if (top.key === '__proto__') {
      Object.defineProperty(top.value, top.key, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else top.value[top.key as string] = value;
  };

  // `expect` says what may come next inside the container on top of the stack.
  let expect: 'value' | 'first-value' | 'key' | 'first-key' | 'after' = 'value';
  for (;;) {
    if (++count % VALUES_PER_STEP === 0) yield;
    skipSpace();
    const char = text[at];
    if (expect === 'after') {
      const top = stack.at(-1);
      if (!top) {
        if (at !== text.length) fail(`Unexpected ${char} after the value`);
        return root;
      }
      const close = top.kind === 'array' ? ']' : '}';
      if (char === ',') {
        at++;
        expect = top.kind === 'array' ? 'value' : 'key';
      } else if (char === close) {
        at++;
        stack.pop();
        place(top.value);
      } else fail(char === undefined ? 'Unexpected end' : `Unexpected ${char}`);
      continue;
    }
    if (expect === 'key' || expect === 'first-key') {
      const top = stack.at(-1) as Extract<Container, { kind: 'object' }>;
      if (expect === 'first-key' && char === '}') {
        at++;
        stack.pop();
        place(top.value);
        expect = 'after';
        continue;
      }
      if (char !== '"') fail(char === undefined ? 'Unexpected end' : `Unexpected ${char}`);
      top.key = readString();
      skipSpace();
      if (text[at] !== ':') fail('Expected a colon');
      at++;
      expect = 'value';
      continue;
    }
    if (expect === 'first-value' && char === ']') {
      at++;
      const top = stack.pop() as Container;
      place(top.value);
      expect = 'after';
      continue;
    }
    if (char === '[' || char === '{') {
      if (stack.length >= MAX_DEPTH) fail('Too deeply nested');
      at++;
      stack.push(
        char === '[' ? { kind: 'array', value: [] } : { kind: 'object', value: {}, key: undefined },
      );
      expect = char === '[' ? 'first-value' : 'first-key';
      continue;
    }
    place(readScalar());
    expect = 'after';
  }
}
