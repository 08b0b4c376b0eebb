// Transcription's variables: the speech-to-text backend for videos without usable captions, its
// server or bucket, and the limits on the audio it takes.
import * as z from '../schema';
import { int, optionalString, text, url } from './values';

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
  /** Largest audio the OpenAI-compatible server takes in one upload, in MB (OpenAI's: 25). */
  TRANSCRIPTION_MAX_UPLOAD_MB: int(1, 4_096, 25),
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
