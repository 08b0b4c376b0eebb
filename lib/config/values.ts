// The kinds of value a variable holds (bounded integers, lists, URLs, origins, texts), each
// with its default: the building blocks of every area's settings.

import * as z from '../schema';
import { isLoopbackHost } from './origin';

export const int = (min: number, max: number, fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.minimum(min), z.maximum(max)), fallback);

/** A bounded integer, or undefined when unset or blank (its default depends on another). */
export const optionalInt = (min: number, max: number) =>
  z.pipe(
    optionalString,
    z.optional(z.coerce.number<string>().check(z.int(), z.minimum(min), z.maximum(max))),
  );

/** A string, or undefined when unset or blank. */
export const optionalString = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((value) => (value === '' ? undefined : value)),
  ),
);

const splitList = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** A comma-separated list (empty when unset). */
export const list = z.pipe(z._default(z.string(), ''), z.transform(splitList));

/** Whether a value is an origin as a browser's `Origin` header names one. */
const isOrigin = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
};

/**
 * A comma-separated list of origins, each written as a browser sends it in `Origin`
 * (`https://host[:port]`: lower-case, no default port, no path or trailing slash), so that it is
 * compared string for string; `fallback` when unset, none when set empty.
 */
export const originList = (fallback: string) =>
  z.pipe(
    z.pipe(z._default(z.string(), fallback), z.transform(splitList)),
    z.array(
      z
        .string()
        .check(
          z.refine(
            isOrigin,
            'must be origins as browsers send them: https://host[:port], lower-case, no path or trailing slash',
          ),
        ),
    ),
  );

export const url = (fallback?: string) => {
  const schema = z.url({ protocol: /^https?$/ });
  return fallback === undefined
    ? z.pipe(optionalString, z.optional(schema))
    : z._default(schema, fallback);
};

/**
 * A public origin: https, or http on a loopback host (what OAuth 2.1 allows without TLS), with
 * no path, query or credentials.
 */
export const publicOrigin = z.pipe(
  optionalString,
  z.optional(
    z.url({ protocol: /^https?$/ }).check(
      z.refine((value) => {
        const url = new URL(value);
        return (
          (url.protocol === 'https:' || isLoopbackHost(url.hostname)) &&
          (url.pathname === '/' || url.pathname === '') &&
          url.search === '' &&
          url.hash === '' &&
          url.username === '' &&
          url.password === ''
        );
      }, 'must be an origin (https://host[:port], no path), or http on a loopback address'),
    ),
  ),
);

/** A non-empty string with a default. */
export const text = (fallback: string, min = 1, max = Number.MAX_SAFE_INTEGER) =>
  z._default(z.string().check(z.minLength(min), z.maxLength(max)), fallback);
