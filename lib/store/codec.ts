// How the stores keep JSON values in DynamoDB: gzip-compressed binary. A 3-hour
// transcript is ~350 KB of JSON, close to DynamoDB's 400 KB item limit, and ~60 KB compressed;
// a summary with its key points shrinks about threefold.
import { gunzipSync, gzipSync } from 'node:zlib';

/** A value as stored. */
export function pack(value: unknown): Uint8Array {
  return gzipSync(JSON.stringify(value));
}

/** A stored value, or undefined for one this version cannot read (it is then made anew). */
export function unpack<T>(stored: unknown): T | undefined {
  try {
    return JSON.parse(gunzipSync(stored as Uint8Array).toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
