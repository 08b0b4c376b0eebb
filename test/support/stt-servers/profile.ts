// What a fake speech-to-text server is made of: how it answers one request (its paths, status
// codes, error bodies, answer shapes, time units and limits), as the real server's source does.
// test/support/transcription-stub.ts serves a profile over HTTP, reads the multipart upload with
// undici's own parser, and plays scripted faults (5xx, hangs, resets) over any profile.
import { languageTag } from '../../../lib/transcription/backend';
import type { TranscriptSegment } from '../../../lib/youtube/types';

/** One request as the fake read it. */
export interface SttUpload {
  method: string;
  /** The path, without the query. */
  path: string;
  /** The multipart text fields, each with all its values. */
  fields: Map<string, string[]>;
  /** The uploaded file, when one came. */
  file?: { name: string; type: string; bytes: Buffer };
  /** The request's body size in bytes (limits count the whole request). */
  bodyBytes: number;
}

/** What was said in the audio, as the test tells the fake. */
export interface Spoken {
  segments: readonly TranscriptSegment[];
  /** The language spoken, as Whisper names it in English ("english", "german"). */
  language: string;
  /** A file's length in ms, by its name (default: the end of the last segment). */
  durationMsOf(fileName: string): number;
}

/** One answer. */
export interface SttAnswer {
  status: number;
  contentType?: string;
  headers?: Record<string, string>;
  body: string | Buffer;
}

export interface SttProfile {
  name: string;
  /** The base URL's path the service is given (`/v1`, `/inference`, `/openai/v1`). */
  basePath: string;
  /** The path uploads go to. */
  uploadPath: string;
  /** Answers a request (any path: each server has its own 404). */
  answer(upload: SttUpload, spoken: Spoken): SttAnswer;
}

/** The value of a field (its first). */
export const field = (upload: SttUpload, name: string) => upload.fields.get(name)?.[0];

export const json = (status: number, body: unknown, headers?: Record<string, string>) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
  ...(headers ? { headers } : {}),
});

export const text = (status: number, body: string, contentType = 'text/plain; charset=utf-8') => ({
  status,
  contentType,
  body,
});

/** Whisper's English name of a language tag or name ("en", "english" -> "english"). */
export function whisperName(language: string): string {
  const tag = languageTag(language) ?? language;
  const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag.split('-')[0] ?? tag);
  return (name ?? language).toLowerCase();
}

/** A language's code as Whisper's tokenizer has it ("english" -> "en"). */
export const languageCode = (language: string) => (languageTag(language) ?? language).split('-')[0];

/** The segments in seconds, as Whisper's verbose_json has them, with its other fields. */
export function whisperSegments(spoken: Spoken) {
  return spoken.segments.map((segment, id) => ({
    id,
    seek: 0,
    start: segment.offsetMs / 1000,
    end: (segment.offsetMs + segment.durationMs) / 1000,
    text: ` ${segment.text}`,
    tokens: [50364, 400, 50414],
    temperature: 0,
    avg_logprob: -0.2,
    compression_ratio: 1.4,
    no_speech_prob: 0.01,
  }));
}

/** The spoken text, joined as Whisper joins segments. */
export const spokenText = (spoken: Spoken) =>
  spoken.segments.map((segment) => ` ${segment.text}`).join('');
