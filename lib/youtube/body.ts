// An answer's body read within a size cap, as it arrives: whole into a Response, or chunk by
// chunk where the caller places the bytes itself (a download of audio).

import { youTubeBadResponse } from './errors';
import type { UnreadResponse } from './fetch';

const NULL_BODY_STATUSES = new Set([204, 205, 304]);
// Headers that describe the wire encoding, which no longer applies once the body is buffered.
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

/** The answer read whole (at most `maxBytes`) into a Response, without the wire's headers. */
export async function buffered(response: UnreadResponse, maxBytes: number): Promise<Response> {
  const bytes = await readCapped(response, maxBytes);
  const responseHeaders = new Headers();
  for (const [name, value] of response.headers) {
    if (!WIRE_HEADERS.has(name)) responseHeaders.append(name, value);
  }
  return new Response(NULL_BODY_STATUSES.has(response.status) ? null : bytes, {
    status: response.status,
    statusText: response.statusText,
    headers: responseHeaders,
  });
}

/** Reads a body whole, giving up as soon as it exceeds `limit` bytes (declared or actual). */
async function readCapped(response: UnreadResponse, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await readChunks(response, limit, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

/**
 * Hands a body's chunks to `take` as they arrive, giving up (502 youtube-bad-response) as soon
 * as it exceeds `limit` bytes, declared or actual; returns how many bytes it had.
 */
export async function readChunks(
  response: UnreadResponse,
  limit: number,
  take: (chunk: Uint8Array) => void,
): Promise<number> {
  const tooBig = () => youTubeBadResponse(`an answer larger than ${limit} bytes`);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  if (!response.body) return 0;
  const reader = response.body.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooBig();
    }
    take(value);
  }
}
