// What the backend tests send the fake servers: a file as the transcriber hands one over (a
// WebM part, not decodable, named as parts are), a call with a budget, and the server's words as
// the problem's causes carry them to the log.
import type { AudioFile, UploadCall } from '../../../lib/transcription/backend';
import type { TranscriptSegment } from '../../../lib/youtube/types';

/** The EBML magic every WebM file starts with: what whisper.cpp without --convert cannot read. */
const WEBM_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

/** A WebM part of `bytes` bytes lasting `durationMs`. */
export function webmPart(
  durationMs: number | undefined,
  options: { bytes?: number; number?: number; count?: number } = {},
): AudioFile {
  const bytes = new Uint8Array(options.bytes ?? 4_096);
  bytes.set(WEBM_MAGIC);
  return {
    bytes,
    mimeType: 'audio/webm; codecs="opus"',
    videoId: 'dQw4w9WgXcQ',
    ...(durationMs === undefined ? {} : { durationMs }),
    part: { number: options.number ?? 2, count: options.count ?? 3 },
  };
}

/** A call that may wait `budgetMs` for its answer. */
export function within(budgetMs: number, language?: string): UploadCall {
  return {
    signal: new AbortController().signal,
    handOverAt: Date.now() + budgetMs,
    ...(language ? { language } : {}),
  };
}

/** Segments of `seconds` each, one per text. */
export function spokenLines(texts: string[], seconds = 5): TranscriptSegment[] {
  return texts.map((text, i) => ({
    text,
    offsetMs: i * seconds * 1000,
    durationMs: seconds * 1000,
  }));
}

/** The messages of an error and of every cause below it, as the worker's error log shows. */
export function causeChain(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  while (current instanceof Error && messages.length < 10) {
    messages.push(current.message);
    current = current.cause;
  }
  return messages.join(' <- ');
}
