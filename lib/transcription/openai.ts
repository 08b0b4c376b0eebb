// Transcription by any OpenAI-compatible speech-to-text server: `POST {base}/audio/transcriptions`,
// the audio as a multipart upload, asked for `verbose_json` with segment timestamps (OpenAI,
// Speaches/faster-whisper-server, whisper.cpp's server, LocalAI). The official `openai` client
// writes the multipart body; what the server answers is checked here, since a server that is
// not quite compatible may answer anything.
import OpenAI, { toFile } from 'openai';
import * as z from '../schema';
import { createOpenAiClient } from '../summaries/llm/openai';
import {
  type AudioFile,
  fileNameOf,
  type Heard,
  type UploadBackend,
  type UploadCall,
} from './backend';
import { transcriptionError, transcriptionRejected, transcriptionTooLarge } from './errors';

export interface OpenAiTranscriptionOptions {
  /** TRANSCRIPTION_BASE_URL, e.g. http://localhost:8000/v1. */
  baseUrl: string;
  /** TRANSCRIPTION_MODEL. */
  model: string;
  /** TRANSCRIPTION_API_KEY; without one, no Authorization header is sent. */
  apiKey?: string;
  /** TRANSCRIPTION_MAX_UPLOAD_MB. */
  maxUploadMb: number;
}

/** What `verbose_json` holds that we read: the language, and timed segments (or only text). */
const verboseSchema = z.object({
  language: z.optional(z.nullable(z.string())),
  text: z.optional(z.nullable(z.string())),
  segments: z.optional(
    z.nullable(
      z.array(
        z.object({
          start: z.number().check(z.nonnegative()),
          end: z.number().check(z.nonnegative()),
          text: z.string(),
        }),
      ),
    ),
  ),
});

/** Retries of a throttled or failing server (the client honours its Retry-After). */
const MAX_RETRIES = 2;

/** The backend of an OpenAI-compatible server. */
export function createOpenAiTranscription(options: OpenAiTranscriptionOptions): UploadBackend {
  const client = createOpenAiClient({
    baseUrl: options.baseUrl,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
  });
  const uploadLimitBytes = options.maxUploadMb * 1_048_576;

  return {
    kind: 'upload',
    name: 'openai-compatible',
    uploadLimitBytes,
    async transcribeFile(file: AudioFile, call: UploadCall): Promise<Heard> {
      // A server that does not answer by the hand-over time has failed: a 502 while the run can
      // still say so (the client's own timeout would start its retries over).
      const late = AbortSignal.timeout(Math.max(1_000, call.handOverAt - Date.now()));
      let answer: unknown;
      try {
        answer = await client.audio.transcriptions.create(
          {
            // Uploaded as downloaded: the server decodes WebM/Opus and MP4/AAC itself.
            file: await toFile(file.bytes, fileNameOf(file), { type: file.mimeType }),
            model: options.model,
            response_format: 'verbose_json',
            timestamp_granularities: ['segment'],
            ...(call.language ? { language: call.language.split('-')[0] } : {}),
          },
          { signal: AbortSignal.any([call.signal, late]), maxRetries: MAX_RETRIES },
        );
      } catch (error) {
        throw failureOf(error, call.signal, options.maxUploadMb, file.bytes.byteLength);
      }
      return heardOf(answer);
    },
  };
}

/** What the server's answer holds, or a 502 when it is not a transcription. */
function heardOf(answer: unknown): Heard {
  const parsed = verboseSchema.safeParse(answer);
  if (!parsed.success || (parsed.data.segments == null && typeof parsed.data.text !== 'string')) {
    throw transcriptionError(
      'the transcription service answered something that is not a transcription',
    );
  }
  const { language, segments, text } = parsed.data;
  const heard: Heard = {
    segments: segments
      ? segments.map((segment) => ({
          startMs: segment.start * 1000,
          endMs: Math.max(segment.start, segment.end) * 1000,
          text: segment.text,
        }))
      : // A server without segments: the text as one line at the start.
        [{ startMs: 0, endMs: 0, text: text ?? '' }],
  };
  if (language) heard.language = language;
  return heard;
}

/**
 * What a failed request means: the audio refused (4xx about it) is the client's 422 with the
 * server's reason; a file over the server's limit, 422 transcription-too-large; anything else
 * (5xx, no answer, a key or model the server does not know) a 502 for the operator to look at.
 */
function failureOf(error: unknown, signal: AbortSignal, maxUploadMb: number, bytes: number) {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof OpenAI.APIUserAbortError) {
    return transcriptionError('the transcription service did not answer in time', error);
  }
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const reason = messageOf(error);
    if (error.status === 413) {
      return transcriptionTooLarge(bytes, {
        mb: maxUploadMb,
        variable: 'TRANSCRIPTION_MAX_UPLOAD_MB',
      });
    }
    if (error.status === 401 || error.status === 403) {
      return transcriptionError(
        `the transcription service refused our credentials (HTTP ${error.status}); operators: check TRANSCRIPTION_API_KEY`,
        error,
      );
    }
    if (error.status === 404) {
      return transcriptionError(
        `the transcription service does not know the model or path (HTTP 404: ${reason}); operators: check TRANSCRIPTION_BASE_URL and TRANSCRIPTION_MODEL`,
        error,
      );
    }
    if (error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) {
      return transcriptionRejected(reason, error);
    }
    return transcriptionError(`the transcription service answered HTTP ${error.status}`, error);
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return transcriptionError('the transcription service did not answer in time', error);
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return transcriptionError('the transcription service could not be reached', error);
  }
  return transcriptionError('the transcription request failed', error);
}

/** The server's own message: OpenAI's `{"error": {"message"}}`, or a plain `detail`. */
function messageOf(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown; detail?: unknown } | undefined;
  if (typeof body?.message === 'string') return body.message;
  if (typeof body?.detail === 'string') return body.detail;
  // Without an OpenAI-shaped body the client's message is "<status> <text of the body>".
  return error.message.replace(/^\d{3}\s+/, '');
}
