// A string that counts how much of it the code under test reads: how a test shows, without a
// stopwatch, that hand-written code reads untrusted text in linear time (or not at all). The
// patterns such code uses are checked by test/unit/regex-safety.test.ts; loops are not.

/**
 * `value` as a stand-in string (a Proxy over a String object; use it where the code reads it
 * with `[i]`, `length` and string methods) and `read()`, the characters read so far: one per
 * `text[i]`, those `indexOf` went over, those `slice` returned; any other method, conversion or
 * enumeration counts as reading the whole string. `length` is free. Reading more than `limit`
 * throws at once, so that code gone quadratic fails the test rather than running for minutes.
 */
export function countedString(
  value: string,
  limit = Number.POSITIVE_INFINITY,
): { text: string; read: () => number } {
  let read = 0;
  const count = (chars: number) => {
    read += chars;
    if (read > limit) {
      throw new Error(
        `read ${read} characters of a ${value.length}-character string (limit ${limit})`,
      );
    }
  };
  const methods = new Map<string | symbol, (...args: never[]) => unknown>([
    [
      'indexOf',
      (search: string, from = 0) => {
        const at = value.indexOf(search, from);
        const start = Math.max(0, Math.min(from, value.length));
        count((at < 0 ? value.length : at + search.length) - start);
        return at;
      },
    ],
    [
      'slice',
      (start?: number, end?: number) => {
        const part = value.slice(start, end);
        count(part.length);
        return part;
      },
    ],
  ]);
  const proxy = new Proxy(new String(value), {
    get(_target, key) {
      if (key === 'length') return value.length;
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        count(1);
        return value[Number(key)];
      }
      const counted = methods.get(key);
      if (counted) return counted;
      const member = Reflect.get(String.prototype, key);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        count(value.length);
        return member.apply(value, args);
      };
    },
    ownKeys(target) {
      count(value.length);
      return Reflect.ownKeys(target);
    },
  });
  return { text: proxy as unknown as string, read: () => read };
}
