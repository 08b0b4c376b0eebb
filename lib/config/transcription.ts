// Transcription's variables: the speech-to-text backend for videos without usable captions, its
// server or bucket, and the limits on the audio it takes.
import * as z from '../schema';
import { int, optionalInt, optionalString, text, url } from './values';

/** The speech-to-text backends TRANSCRIPTION_BACKEND names. */
export const TRANSCRIPTION_BACKENDS = ['openai-compatible', 'amazon-transcribe'] as const;

export const transcriptionSettings = {
  /**
   * Speech-to-text for videos without usable captions (docs/transcription.md):
   * `openai-compatible` (any `/audio/transcriptions` server at TRANSCRIPTION_BASE_URL) or
   * `amazon-transcribe` (with TRANSCRIPTION_BUCKET; the stack sets both). Unset: the
   * OpenAI-compatible server when TRANSCRIPTION_BASE_URL is set, else no transcription.
   */
  TRANSCRIPTION_BACKEND: z.pipe(optionalString, z.optional(z.enum(TRANSCRIPTION_BACKENDS))),
  /** An OpenAI-compatible transcription server, e.g. http://localhost:8000/v1 (Speaches). */
  TRANSCRIPTION_BASE_URL: url(),
  /** The model it transcribes with. */
  TRANSCRIPTION_MODEL: text('whisper-1', 1, 200),
  /** Its API key, when it wants one (sent as a bearer token). */
  TRANSCRIPTION_API_KEY: optionalString,
  /** The S3 bucket Amazon Transcribe reads the audio from (set by the stack). */
  TRANSCRIPTION_BUCKET: optionalString,
  /**
   * The path of its transcription endpoint under TRANSCRIPTION_BASE_URL; unset:
   * `/audio/transcriptions`, or none when the base URL already ends in whisper.cpp's `/inference`.
   */
  TRANSCRIPTION_PATH: z.pipe(
    optionalString,
    z.optional(
      z
        .string()
        .check(z.regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, 'must be a path starting with /')),
    ),
  ),
  /** Largest audio the OpenAI-compatible server takes in one upload, in MB (OpenAI's: 25). */
  TRANSCRIPTION_MAX_UPLOAD_MB: int(1, 4_096, 25),
  /**
   * Largest part of the audio sent in one upload, in MB; unset: TRANSCRIPTION_MAX_UPLOAD_MB (a
   * larger value is capped at it). The audio is cut at its own segment boundaries, no transcoding.
   */
  TRANSCRIPTION_PART_MB: optionalInt(1, 4_096),
  /** Longest part of the audio sent in one upload, in minutes (vLLM takes at most 10). */
  TRANSCRIPTION_PART_MINUTES: int(1, 240, 10),
  /** Parts transcribed at the same time. */
  TRANSCRIPTION_CONCURRENCY: int(1, 16, 2),
  /** Largest answer read from the transcription server, in MB; more is a 502. */
  TRANSCRIPTION_MAX_ANSWER_MB: int(1, 512, 8),
  /** Largest audio downloaded for a transcription, in MB. */
  TRANSCRIPTION_MAX_MB: int(1, 4_096, 200),
  /** Longest video transcribed, in minutes. */
  TRANSCRIPTION_MAX_MINUTES: int(1, 1_440, 180),
  /** Minutes of audio transcribed per user per UTC day; 0 means unlimited. */
  TRANSCRIPTION_DAILY_MINUTES: int(0, 1_000_000, 240),
  /** Amazon Transcribe and S3 endpoint overrides (tests point them at local stubs). */
  AWS_ENDPOINT_URL_TRANSCRIBE: url(),
  AWS_ENDPOINT_URL_S3: url(),
};
