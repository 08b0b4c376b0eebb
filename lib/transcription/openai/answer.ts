// A server's answer is untrusted input: read up to TRANSCRIPTION_MAX_ANSWER_MB and no more (the
// rest is not read), decoded as it arrives, and parsed in slices (json-ext's parseChunked, a turn
// of the event loop between two) so that an answer of megabytes never holds the event loop for
// long: other requests of the process (the local host serves them all) keep being answered.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseChunked } from '@discoveryjs/json-ext';
import { transcriptionError } from '../errors';

/** What of an answer's text is parsed between two turns of the event loop (about a millisecond). */
const SLICE_CHARS = 65_536;

/** A body as fetch gives it, read here rather than by the SDK. */
export interface UnreadAnswer {
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * The text of an answer, read up to `maxBytes` (declared or actual).
 * @throws 502 transcription-error past `maxBytes` or when the connection breaks mid-answer; the
 *   signal's reason when it aborts.
 */
export async function readAnswer(
  answer: UnreadAnswer,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  const tooLarge = () =>
    transcriptionError(
      `the transcription service answered more than ${maxBytes / 1_048_576} MB (TRANSCRIPTION_MAX_ANSWER_MB), which is not read`,
    );
  const declared = Number(answer.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await answer.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!answer.body) return '';
  const reader = answer.body.getReader();
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  let total = 0;
  for (;;) {
    let read: Awaited<ReturnType<typeof reader.read>>;
    try {
      read = await reader.read();
    } catch (error) {
      if (signal.aborted) throw error;
      throw transcriptionError("the transcription service's answer broke off mid-way", error);
    }
    if (read.done) break;
    total += read.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    pieces.push(decoder.decode(read.value, { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces.join('');
}

/**
 * The JSON value of an answer's text, parsed in slices; undefined when it is not JSON (or nests
 * deeper than the parser's stack takes).
 * @throws the signal's reason when it aborts between slices.
 */
export async function parseAnswer(text: string, signal: AbortSignal): Promise<unknown> {
  signal.throwIfAborted();
  async function* slices() {
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      yield text.slice(at, at + SLICE_CHARS);
      await nextTurn();
      signal.throwIfAborted();
    }
  }
  try {
    return await parseChunked(slices);
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** An error a server put in an answer: its words and the status it names, if any. */
export interface SaidError {
  words: string;
  status?: number;
}

/**
 * The error an answer states: whisper.cpp's `{"error": "..."}` (HTTP 200 before v1.8.4, #3707),
 * OpenAI's `{"error": {"message", "code"}}`, vLLM's `{"object": "error", "message", "code"}`
 * (HTTP 200 on 0.15, as reported in daymade/claude-code-skills#257), FastAPI's `{"detail"}`;
 * undefined for an answer that states none.
 */
export function errorIn(answer: unknown): SaidError | undefined {
  if (typeof answer === 'string') return answer.trim() ? { words: answer } : undefined;
  if (typeof answer !== 'object' || answer === null) return undefined;
  const record = answer as Record<string, unknown>;
  const statusOf = (code: unknown) =>
    typeof code === 'number' && code >= 400 && code < 600 ? { status: code } : {};
  if (typeof record.error === 'string') return { words: record.error };
  if (typeof record.error === 'object' && record.error !== null) {
    const inner = record.error as Record<string, unknown>;
    if (typeof inner.message === 'string') return { words: inner.message, ...statusOf(inner.code) };
  }
  if (record.object === 'error' && typeof record.message === 'string') {
    return { words: record.message, ...statusOf(record.code) };
  }
  if (typeof record.detail === 'string') return { words: record.detail };
  if (Array.isArray(record.detail)) return { words: JSON.stringify(record.detail) };
  return undefined;
}
