// Transcription by any OpenAI-compatible speech-to-text server: the file as a multipart upload
// (`file`, `model`, `response_format`, `timestamp_granularities[]`, `language`) to
// `{TRANSCRIPTION_BASE_URL}/audio/transcriptions`, TRANSCRIPTION_PATH, or whisper.cpp's
// `/inference`, asked for `verbose_json` with segment times; `json` for a
// model that says it has none. Each upload is sent once and waited for until the run must hand
// over: sent again only when it surely was not worked on (a refused connection, 5xx, 429). The
// answer is read with a cap and parsed in slices, its times checked against
// the file's length; what a failure means is read per server, whose answers differ.
// The official `openai` client writes the request and its headers; the answer is read here.
import { createOpenAiClient } from '../models/openai';
import { runInSlices } from '../util/cooperative';
import { sleep } from '../util/retry';
import {
  type AudioFile,
  fileNameOf,
  type Heard,
  type UploadBackend,
  type UploadCall,
} from './backend';
import { transcriptionError } from './errors';
import { errorIn, parseAnswer, readAnswer } from './openai/answer';
import { endpointOf } from './openai/endpoint';
import { AnsweredError, verdictOf } from './openai/failures';
import { type Asked, heardOf } from './openai/heard';

export interface OpenAiTranscriptionOptions {
  /** TRANSCRIPTION_BASE_URL, e.g. http://localhost:8000/v1 or http://localhost:8080/inference. */
  baseUrl: string;
  /** TRANSCRIPTION_PATH: the endpoint's path under the base URL, when not the usual one. */
  path?: string;
  /** TRANSCRIPTION_MODEL. */
  model: string;
  /** TRANSCRIPTION_API_KEY; without one, no Authorization header is sent. */
  apiKey?: string;
  /** TRANSCRIPTION_MAX_UPLOAD_MB. */
  maxUploadMb: number;
  /** TRANSCRIPTION_MAX_ANSWER_MB (default 8): a larger answer is a 502, not read. */
  maxAnswerMb?: number;
  /** First backoff ceiling of a retry in ms (default 500), doubled per attempt up to 8 s. */
  retryBaseDelayMs?: number;
}

/** Sends of one file in all, the first included, when the server surely did not work on it. */
const MAX_ATTEMPTS = 3;

/** What one upload uses: the backend's options, its client, endpoint and answer limit. */
interface Upload {
  options: OpenAiTranscriptionOptions;
  client: ReturnType<typeof createOpenAiClient>;
  endpoint: ReturnType<typeof endpointOf>;
  maxAnswerBytes: number;
}

/** The backend of an OpenAI-compatible server. */
export function createOpenAiTranscription(options: OpenAiTranscriptionOptions): UploadBackend {
  const client = createOpenAiClient({
    baseUrl: options.baseUrl,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
  });
  const endpoint = endpointOf(options.baseUrl, options.path);
  const maxAnswerBytes = (options.maxAnswerMb ?? 8) * 1_048_576;
  const baseDelayMs = options.retryBaseDelayMs ?? 500;
  /** Models that said they answer `json` only, for the process's life (gpt-4o-transcribe). */
  const jsonOnly = new Set<string>();
  const upload: Upload = { options, client, endpoint, maxAnswerBytes };
  return {
    kind: 'upload',
    name: 'openai-compatible',
    uploadLimitBytes: options.maxUploadMb * 1_048_576,
    async transcribeFile(file: AudioFile, call: UploadCall): Promise<Heard> {
      // Waited for until the hand-over time, and no longer: then a 502 while the run can say so.
      const late = AbortSignal.timeout(Math.max(1_000, Math.floor(call.handOverAt - Date.now())));
      const signal = AbortSignal.any([call.signal, late]);
      const language = call.language?.split('-')[0] ?? (endpoint.whisperCpp ? 'auto' : undefined);
      const context = {
        model: options.model,
        bytes: file.bytes.byteLength,
        signal: call.signal,
        late,
      };
      for (let attempt = 1; ; attempt++) {
        const asked: Asked = {
          format: jsonOnly.has(options.model) ? 'json' : 'verbose_json',
          ...(language ? { language } : {}),
        };
        try {
          return await send(upload, file, asked, signal);
        } catch (error) {
          const verdict = verdictOf(error, context);
          if (verdict.kind === 'json' && asked.format === 'verbose_json') {
            // Refused before any work: asking again costs the server nothing.
            jsonOnly.add(options.model);
            attempt--;
            continue;
          }
          if (verdict.kind === 'json')
            throw transcriptionError('the transcription service refused json too', error);
          if (verdict.kind === 'fail') throw verdict.problem;
          const ceiling = Math.min(8_000, baseDelayMs * 2 ** (attempt - 1));
          const waitMs = verdict.afterMs ?? Math.round(Math.random() * ceiling);
          if (attempt >= MAX_ATTEMPTS || Date.now() + waitMs >= call.handOverAt)
            throw verdict.problem;
          if (!(await sleep(waitMs, signal))) {
            // Stopped or out of time while waiting: say which.
            const stopped = verdictOf(error, context);
            throw stopped.kind === 'fail' ? stopped.problem : verdict.problem;
          }
        }
      }
    },
  };
}

/** One upload and its answer. */
async function send(
  upload: Upload,
  file: AudioFile,
  asked: Asked,
  signal: AbortSignal,
): Promise<Heard> {
  const { options, client, endpoint, maxAnswerBytes } = upload;
  const form = new FormData();
  form.append(
    'file',
    new File([file.bytes as Uint8Array<ArrayBuffer>], fileNameOf(file), { type: file.mimeType }),
  );
  form.append('model', options.model);
  form.append('response_format', asked.format);
  if (asked.format === 'verbose_json') form.append('timestamp_granularities[]', 'segment');
  if (asked.language) form.append('language', asked.language);
  const response = await client.post(endpoint.url, { body: form, signal }).asResponse();
  const text = await readAnswer(response, maxAnswerBytes, signal);
  const answer = await parseAnswer(text, signal);
  if (
    typeof answer !== 'object' ||
    answer === null ||
    !('text' in answer || 'segments' in answer)
  ) {
    const said = errorIn(answer ?? text);
    if (said) throw new AnsweredError(said.status ?? response.status, said.words);
  }
  return runInSlices(heardOf(answer, file, asked), signal);
}
