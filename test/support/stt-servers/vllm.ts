// vLLM's `POST /v1/audio/transcriptions`, as vllm-project/vllm answers it
// (vllm/entrypoints/openai/speech_to_text/speech_to_text.py at 024e0772be6a950083ccb3428624fce23572f19f,
// vllm/entrypoints/openai/engine/serving.py):
// - a model it does not serve: 404 "The model `<m>` does not exist." (NotFoundError, param model).
// - errors are ErrorResponse: `{"error":{"message","type","param","code"}}`, status = code; a
//   ValueError in preprocessing is a 400 BadRequestError.
// - `response_format` other than text/json/verbose_json: 400; `verbose_json` from a model without
//   segment timestamps: 400 "Currently do not support verbose_json for <model>".
// - VLLM_MAX_AUDIO_CLIP_FILESIZE_MB (25 by default): 400 "Maximum file size exceeded" with
//   parameter audio_filesize_mb and its value (VLLMValidationError).
// - VLLM_MAX_AUDIO_DECODE_DURATION_S (600 by default, since v0.26.0: vllm-project/vllm#44970,
//   docs usage/security.md; configurable, 0 turns it off): longer audio is refused while it is
//   decoded, a ValueError whose message contains "exceeds maximum allowed duration"
//   (tests/multimodal/media/test_audio.py); the rest of the fake's wording is ours.
// - `verbose_json`: `text`, `language` as asked (null when none), `duration` as a string,
//   `segments` in seconds with `seek`, `tokens`, `temperature`, `avg_logprob`,
//   `compression_ratio`, `no_speech_prob` null. `json`: `{text, usage: {type: duration}}`.
import { field, json, type SttProfile, spokenText } from './profile';

export interface VllmOptions {
  /** The served model name (`vllm serve openai/whisper-large-v3`). */
  model?: string;
  /** Whether the model gives segment timestamps (Whisper does; most others do not). */
  timestamps?: boolean;
  /** VLLM_MAX_AUDIO_DECODE_DURATION_S (default 600). */
  maxDurationS?: number;
  /** VLLM_MAX_AUDIO_CLIP_FILESIZE_MB (default 25). */
  maxFileMb?: number;
}

const error = (status: number, message: string, type: string, param: string | null = null) =>
  json(status, { error: { message, type, param, code: status } });

/** vLLM serving a speech-to-text model. */
export function vllm(options: VllmOptions = {}): SttProfile {
  const served = options.model ?? 'openai/whisper-large-v3';
  const maxDurationS = options.maxDurationS ?? 600;
  const maxFileMb = options.maxFileMb ?? 25;
  return {
    name: 'vllm',
    basePath: '/v1',
    uploadPath: '/v1/audio/transcriptions',
    answer(upload, spoken) {
      if (upload.method !== 'POST' || upload.path !== '/v1/audio/transcriptions') {
        return json(404, { detail: 'Not Found' });
      }
      const model = field(upload, 'model');
      if (model !== served) {
        return error(404, `The model \`${model}\` does not exist.`, 'NotFoundError', 'model');
      }
      const format = field(upload, 'response_format') ?? 'json';
      if (!['text', 'json', 'verbose_json'].includes(format)) {
        return error(
          400,
          'Currently only support response_format: `text`, `json` or `verbose_json`',
          'BadRequestError',
        );
      }
      if (format === 'verbose_json' && options.timestamps === false) {
        return error(400, `Currently do not support verbose_json for ${model}`, 'BadRequestError');
      }
      const mb = (upload.file?.bytes.byteLength ?? 0) / 1024 ** 2;
      if (mb > maxFileMb) {
        return error(
          400,
          `Maximum file size exceeded (parameter=audio_filesize_mb, value=${mb})`,
          'BadRequestError',
        );
      }
      const durationS = spoken.durationMsOf(upload.file?.name ?? '') / 1000;
      if (maxDurationS > 0 && durationS > maxDurationS) {
        return error(
          400,
          `Audio duration ${durationS.toFixed(1)}s exceeds maximum allowed duration of ${maxDurationS}s (VLLM_MAX_AUDIO_DECODE_DURATION_S)`,
          'BadRequestError',
        );
      }
      const textOf = spokenText(spoken);
      if (format === 'text') return { status: 200, contentType: 'text/plain', body: textOf };
      if (format === 'json') {
        return json(200, {
          text: textOf,
          usage: { type: 'duration', seconds: Math.ceil(durationS) },
        });
      }
      return json(200, {
        text: textOf,
        language: field(upload, 'language') ?? null,
        duration: String(durationS),
        segments: spoken.segments.map((segment, id) => ({
          id,
          seek: 0,
          start: segment.offsetMs / 1000,
          end: (segment.offsetMs + segment.durationMs) / 1000,
          temperature: 0,
          text: ` ${segment.text}`,
          compression_ratio: 1.3,
          tokens: [400, 401],
          avg_logprob: -0.21,
          no_speech_prob: null,
        })),
      });
    },
  };
}
