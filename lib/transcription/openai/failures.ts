// What a failed upload means, from what each server answers when it fails (their sources are
// cited in test/support/stt-servers/): sent again (a refused connection, 5xx, 429), asked again
// as `json` (a model that gives no segments), or a problem for the client: the audio refused
// (422, the server's words as plain text), the server set up in a way that cannot work (502
// transcription-misconfigured, the fix for the operator), or a failure (502). The server's own
// words go into the problem's cause, which the worker's error log prints.
import OpenAI from 'openai';
import type { HttpError } from '../../errors';
import { answerOf } from '../../models/openai';
import { nothingWasSent } from '../../net/patient-fetch';
import { parseRetryAfter } from '../../net/retry-after';
import { decodeEntities } from '../../youtube/captions/transcript';
import {
  plainReason,
  transcriptionError,
  transcriptionMisconfigured,
  transcriptionRejected,
} from '../errors';
import { errorIn } from './answer';

/** An error a server stated in the body of a success (whisper.cpp before v1.8.4, old vLLM). */
export class AnsweredError extends Error {
  override name = 'AnsweredError';
  constructor(
    readonly status: number,
    readonly words: string,
  ) {
    super(`the transcription service answered HTTP ${status} with an error: ${words}`);
  }
}

/** The server's words, kept as the cause of the problem made of them (the worker logs it). */
export class ServerSaid extends Error {
  override name = 'TranscriptionServerSaid';
}

export type Verdict =
  /** Worth sending again (after `afterMs` when the server said); `problem` when out of tries. */
  | { kind: 'again'; afterMs?: number; problem: HttpError }
  /** The model answers `json` only: ask again so. */
  | { kind: 'json' }
  | { kind: 'fail'; problem: unknown };

export interface Context {
  model: string;
  /** The size of the file sent. */
  bytes: number;
  /** The run's own signal, and the one that ends the wait at the hand-over time. */
  signal: AbortSignal;
  late: AbortSignal;
}

/** What a failed upload means. */
export function verdictOf(error: unknown, context: Context): Verdict {
  if (context.signal.aborted) return { kind: 'fail', problem: context.signal.reason ?? error };
  if (context.late.aborted) {
    return {
      kind: 'fail',
      problem: transcriptionError('the transcription service did not answer in time', error),
    };
  }
  if (error instanceof AnsweredError)
    return statusVerdict(error.status, error.words, error, context);
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const answer = answerOf(error);
    const words = errorIn(answer)?.words ?? (typeof answer === 'string' ? answer : error.message);
    return statusVerdict(error.status, words, error, context, error.headers);
  }
  if (
    error instanceof OpenAI.APIUserAbortError ||
    error instanceof OpenAI.APIConnectionTimeoutError
  ) {
    return {
      kind: 'fail',
      problem: transcriptionError('the transcription service did not answer in time', error),
    };
  }
  if (nothingWasSent(error)) {
    return {
      kind: 'again',
      problem: transcriptionError('the transcription service could not be reached', error),
    };
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return {
      kind: 'fail',
      problem: transcriptionError(
        'the connection to the transcription service broke off before its answer (not sent again: it may still be working on it)',
        error,
      ),
    };
  }
  return { kind: 'fail', problem: error };
}

/** What an answer with this status and these words means. */
function statusVerdict(
  status: number,
  rawWords: string,
  error: unknown,
  context: Context,
  headers?: Headers,
): Verdict {
  const words = readable(rawWords);
  const said = new ServerSaid(`HTTP ${status}: ${words}`, { cause: error });
  const misconfigured = (fix: string) => ({
    kind: 'fail' as const,
    problem: transcriptionMisconfigured(fix, said),
  });
  const whisperCpp = whisperCppFix(words);
  if (whisperCpp) return misconfigured(whisperCpp);
  if (status === 400 && refusesVerboseJson(words, error)) return { kind: 'json' };
  if (status === 401 || status === 403) {
    return misconfigured(
      `the transcription service refused our credentials (HTTP ${status}): check TRANSCRIPTION_API_KEY.`,
    );
  }
  if (status === 404) {
    return misconfigured(
      /not installed locally|POST \/v1\/models/i.test(words)
        ? `check TRANSCRIPTION_MODEL; Speaches needs the model downloaded first: POST /v1/models/${context.model}`
        : `the transcription service knows no such model or path (HTTP 404): check TRANSCRIPTION_MODEL, TRANSCRIPTION_BASE_URL and TRANSCRIPTION_PATH.`,
    );
  }
  if (status === 413) {
    return misconfigured(
      `the transcription service (or a proxy before it) refused a ${(context.bytes / 1_048_576).toFixed(1)} MB upload as too large (HTTP 413): set TRANSCRIPTION_MAX_UPLOAD_MB (or TRANSCRIPTION_PART_MB) under its limit, or raise the limit (LocalAI: UPLOAD_LIMIT, 15 MB by default).`,
    );
  }
  if (status === 429) {
    const seconds = parseRetryAfter(headers?.get('retry-after'));
    return {
      kind: 'again',
      ...(seconds === undefined ? {} : { afterMs: seconds * 1000 }),
      problem: transcriptionError('the transcription service is busy (HTTP 429)', said),
    };
  }
  if (status >= 500) {
    return {
      kind: 'again',
      problem: transcriptionError(`the transcription service answered HTTP ${status}`, said),
    };
  }
  if (status >= 400 && status !== 408) {
    return { kind: 'fail', problem: transcriptionRejected(words, said) };
  }
  return {
    kind: 'fail',
    problem: transcriptionError(`the transcription service answered HTTP ${status}`, said),
  };
}

/**
 * OpenAI's refusal of `verbose_json` by the gpt-4o transcribe models ("response_format
 * 'verbose_json' is not compatible with model ... Use 'json' or 'text' instead.", param
 * `response_format`), and vLLM's for a model without timestamps ("Currently do not support
 * verbose_json for ...").
 */
function refusesVerboseJson(words: string, error: unknown): boolean {
  const param = error instanceof OpenAI.APIError ? error.param : undefined;
  return param === 'response_format' || /verbose_json/i.test(words);
}

/**
 * whisper.cpp's server without `--convert` reads WAV, MP3, FLAC and Vorbis only: anything else
 * is `{"error":"failed to read audio data"}` (HTTP 400 since v1.8.4, 200 before); with it, a
 * conversion that fails is "Failed to execute ffmpeg command." (500) or "failed to read WAV
 * file" (400). Not the video's fault: the server's.
 */
function whisperCppFix(words: string): string | undefined {
  if (/^failed to read audio data$/i.test(words)) {
    return "whisper.cpp's server cannot read this audio (WebM/Opus, MP4/AAC): start it with `--convert` (it needs ffmpeg; the ghcr.io/ggml-org/whisper.cpp:main image has it) and `-l auto`.";
  }
  if (/^(failed to read WAV file|Failed to execute ffmpeg command\.?)$/i.test(words)) {
    return "whisper.cpp's server could not convert the audio with ffmpeg (started with `--convert`): check that ffmpeg runs where the server does.";
  }
  return undefined;
}

/**
 * A server's words as a person reads them: an HTML page (a proxy's 413 or 400) becomes its
 * visible text (no head, scripts or styles; entities decoded), then plainReason's plain text.
 */
export function readable(words: string): string {
  if (!/<\s*(?:!doctype|html|head|body|title|h1|center|p)\b/i.test(words))
    return plainReason(words);
  const title = between(words, 'title');
  let text = words;
  for (const tag of ['head', 'script', 'style']) text = withoutElements(text, tag);
  const visible = plainReason(decodeEntities(text.replace(/<[^<>]{0,2000}>/g, ' ')));
  return visible || plainReason(decodeEntities(title ?? ''));
}

/** The text of the first `<tag>` element, if any. */
function between(html: string, tag: string): string | undefined {
  const lower = html.toLowerCase();
  const open = lower.indexOf(`<${tag}`);
  const start = open < 0 ? -1 : lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf(`</${tag}`, start);
  return end < 0 ? undefined : html.slice(start + 1, end);
}

/** The page without its `<tag>` elements (searched as plain text: linear). */
function withoutElements(html: string, tag: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let from = 0;
  for (;;) {
    const open = lower.indexOf(`<${tag}`, from);
    if (open < 0) break;
    const close = lower.indexOf(`</${tag}`, open);
    const end = close < 0 ? -1 : lower.indexOf('>', close);
    out += `${html.slice(from, open)} `;
    if (end < 0) return out;
    from = end + 1;
  }
  return out + html.slice(from);
}
