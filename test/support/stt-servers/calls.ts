// What the backend tests send the fake servers: a file as the transcriber hands one over (a
// WebM part, not decodable, named as parts are), a call with a budget, and the server's words as
// the problem's causes carry them to the log; and the fakes themselves, one per test.
import { afterEach } from 'vitest';
import type { AudioFile, UploadCall } from '../../../lib/transcription/backend';
import {
  createOpenAiTranscription,
  type OpenAiTranscriptionOptions,
} from '../../../lib/transcription/openai';
import type { TranscriptSegment } from '../../../lib/youtube/types';
import { startTranscriptionStub, type TranscriptionStub } from '../transcription-stub';
import type { SttProfile } from './profile';

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

/** What the fakes say by default: four sentences of five seconds. */
export const FOUR_LINES = [
  'The first thing.',
  'Then a second one!',
  'A third?',
  'And the last words.',
];
/** The length of the part they are in. */
export const FOUR_LINES_MS = 20_000;
/** Those lines as a backend that timed them gives them. */
export const FOUR_LINES_HEARD = FOUR_LINES.map((text, i) => ({
  startMs: i * 5_000,
  endMs: (i + 1) * 5_000,
  text: ` ${text}`,
}));

/**
 * A maker of fakes for the tests of a file, each closed after its test: a fake of `profile`
 * saying FOUR_LINES in `language`, and the backend the service makes of its settings.
 */
export function useFakeServers() {
  let stubs: TranscriptionStub[] = [];
  afterEach(async () => {
    await Promise.all(stubs.map((stub) => stub.close()));
    stubs = [];
  });
  return async (
    profile: SttProfile,
    options: Partial<OpenAiTranscriptionOptions> = {},
    language = 'english',
  ) => {
    const stub = await startTranscriptionStub({ profile });
    stubs.push(stub);
    stub.setSegments(spokenLines(FOUR_LINES), language);
    const backend = createOpenAiTranscription({
      baseUrl: stub.baseUrl,
      model: 'whisper-1',
      maxUploadMb: 25,
      retryBaseDelayMs: 10,
      ...options,
    });
    return { stub, backend };
  };
}
