// Every way a transcription can fail, as the problem types clients see, in one file (as
// youtube/errors.ts does for YouTube): the limits checked before any download (422), the daily
// budget (429), the backend's refusal of the audio (422) and its failures (502, 504).
import {
  BadGatewayError,
  GatewayTimeoutError,
  type HttpError,
  TooManyRequestsError,
  UnprocessableError,
} from '../errors';
import { withoutHidden } from '../util/text';

/** Where the manual explains how to turn transcription on. */
const HOW_TO_ENABLE =
  'Operators can enable transcription of the audio of such videos: set TRANSCRIPTION_BASE_URL to an OpenAI-compatible speech-to-text server, or deploy with -c transcription=amazon-transcribe (docs/transcription.md).';

/**
 * The problem of a video without captions when nothing transcribes it: the original problem,
 * its detail saying what would. `configured`: the deployment transcribes, but not here (POST
 * /ask and the MCP tools reuse transcriptions the summaries made).
 */
export function withTranscriptionHint(problem: HttpError, configured: boolean): HttpError {
  if (problem.type !== 'captions-disabled') return problem;
  const hint = configured
    ? 'Its audio is transcribed when it is summarised: ask for a summary first (POST /summarize, or the summarize_video tool), then ask again.'
    : HOW_TO_ENABLE;
  return new UnprocessableError(problem.type, problem.title, `${problem.message} ${hint}`, {
    cause: problem,
    extensions: problem.extensions,
  });
}

/** 422: a video's captions are missing and its audio cannot be downloaded by this service. */
export function audioUnavailable(problem: HttpError, cipheredOnly: boolean): HttpError {
  const why = cipheredOnly
    ? 'YouTube offered its audio only with signed URLs (signatureCipher), which this service does not use'
    : 'YouTube offered no audio for it';
  return new UnprocessableError(
    problem.type,
    problem.title,
    `${problem.message} Its audio cannot be transcribed either: ${why}.`,
    { cause: problem, extensions: problem.extensions },
  );
}

/** 422: longer than TRANSCRIPTION_MAX_MINUTES (known before any download). */
export function videoTooLongToTranscribe(minutes: number | null, max: number): HttpError {
  const length = minutes === null ? 'of unknown length' : `${minutes} minutes long`;
  return new UnprocessableError(
    'video-too-long-to-transcribe',
    'Video too long to transcribe',
    `This video has no captions, and it is ${length}: this service transcribes videos of at most ${max} minutes (TRANSCRIPTION_MAX_MINUTES).`,
    { extensions: { max_minutes: max } },
  );
}

/**
 * 422: the audio is larger than this service downloads (TRANSCRIPTION_MAX_MB) or than the
 * backend takes in one upload (TRANSCRIPTION_MAX_UPLOAD_MB).
 */
export function transcriptionTooLarge(
  bytes: number | undefined,
  limit: { mb: number; variable: 'TRANSCRIPTION_MAX_MB' | 'TRANSCRIPTION_MAX_UPLOAD_MB' },
): HttpError {
  const size = bytes === undefined ? 'too large' : `${(bytes / 1_048_576).toFixed(1)} MB`;
  const what =
    limit.variable === 'TRANSCRIPTION_MAX_MB'
      ? 'this service downloads at most'
      : 'the transcription service takes at most';
  return new UnprocessableError(
    'transcription-too-large',
    'Audio too large to transcribe',
    `This video has no captions, and its audio is ${size}: ${what} ${limit.mb} MB (${limit.variable}).`,
    { extensions: { max_mb: limit.mb } },
  );
}

/**
 * @throws 422 transcription-too-large when `bytes` (when known) are more than one upload takes
 *   (`limitBytes`, TRANSCRIPTION_MAX_UPLOAD_MB).
 */
export function checkUploadSize(bytes: number | undefined, limitBytes: number): void {
  if (bytes === undefined || bytes <= limitBytes) return;
  throw transcriptionTooLarge(bytes, {
    mb: Math.round(limitBytes / 1_048_576),
    variable: 'TRANSCRIPTION_MAX_UPLOAD_MB',
  });
}

/** 429: the user's transcription minutes of today are spent (TRANSCRIPTION_DAILY_MINUTES). */
export function transcriptionBudgetExceeded(
  minutes: number,
  left: number,
  limit: number,
  retryAfterSeconds: number,
): HttpError {
  return new TooManyRequestsError(
    retryAfterSeconds,
    `This video has no captions, and transcribing its ${minutes} minutes would pass your daily budget of ${limit} transcribed minutes (UTC; ${left} left today). Captioned and already transcribed videos stay available.`,
    'transcription-budget-exceeded',
  );
}

/** The most of a backend's reason a client is shown. */
export const MAX_REASON_CHARS = 300;

/**
 * A backend's words as a client may read them: plain text (markup and invisible characters
 * removed, white space collapsed), at most MAX_REASON_CHARS characters.
 */
export function plainReason(reason: string): string {
  const text = withoutHidden(reason.replace(/<[^<>]{0,2000}>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= MAX_REASON_CHARS ? text : `${text.slice(0, MAX_REASON_CHARS - 1)}…`;
}

/** 422: the transcription service refused the audio; its reason is passed on, as plain text. */
export function transcriptionRejected(reason: string, cause?: unknown): HttpError {
  const said = plainReason(reason) || 'no reason given';
  return new UnprocessableError(
    'transcription-rejected',
    'Audio not transcribable',
    `The transcription service refused this video's audio: ${said}`,
    { cause, extensions: { backend_reason: said } },
  );
}

/**
 * 502: the transcription service failed (5xx, no answer in time, an answer that is not a
 * transcription). Nothing is cached: a later request tries again.
 */
export function transcriptionError(detail: string, cause?: unknown): HttpError {
  return new BadGatewayError(
    'transcription-error',
    `The transcription of this video's audio failed: ${detail}. Try again later.`,
    { cause },
  );
}

/**
 * 502: the transcription service is set up in a way that cannot work (e.g. whisper.cpp's server
 * started without `--convert`): the client is told transcription is unavailable, not that their
 * video is bad; `fix` tells the operator what to change (the log has the server's own words).
 */
export function transcriptionMisconfigured(fix: string, cause?: unknown): HttpError {
  return new BadGatewayError(
    'transcription-misconfigured',
    `Transcription of videos without captions is unavailable on this service at the moment. Operators: ${fix}`,
    { cause },
  );
}

/** 504: a transcription job outlived every delivery of its summary's work. */
export function transcriptionTimeout(): HttpError {
  return new GatewayTimeoutError(
    'transcription-timeout',
    'The transcription of this video did not finish in time. Ask again later: a finished transcription is reused.',
  );
}

/**
 * Thrown when a run's time ends while a transcription job goes on (Amazon Transcribe) or
 * another worker is still transcribing the video: the run hands its work back, and the next
 * delivery picks the job up by its name.
 */
export class TranscriptionPendingError extends Error {
  override name = 'TranscriptionPendingError';
}
