// OpenAI's `POST /v1/audio/transcriptions` (whisper-1, gpt-4o-transcribe, gpt-4o-mini-transcribe)
// and Groq's copy of it at `/openai/v1` (whisper-large-v3), as they answer. OpenAI publishes no
// server source; what it answers is taken from its API reference and from answers quoted in
// public issues:
// - whisper-1 `verbose_json`: `task`, `language` as Whisper's English name ("english"),
//   `duration`, `text`, `segments` in seconds with Whisper's fields (the API reference's
//   TranscriptionVerbose; openai-node src/resources/audio/transcriptions.ts).
// - gpt-4o(-mini)-transcribe refuse `verbose_json` with a 400, exactly: "response_format
//   'verbose_json' is not compatible with model 'gpt-4o-transcribe-api-ev3'. Use 'json' or 'text'
//   instead." (type invalid_request_error, param response_format, code unsupported_value:
//   openai/openai-dotnet#401, vercel/ai#8214, zachlatta/freeflow#218); `json` is `{text, usage}`.
// - uploads over 25 MiB: 413 "Maximum content size limit (26214400) exceeded (N bytes read)",
//   type server_error (chidiwilliams/buzz#381, StanGirard/speechdigest#1).
// - Groq: the same endpoint under https://api.groq.com/openai/v1 (console.groq.com/docs/
//   speech-to-text), whisper-large-v3 and -turbo, `verbose_json` with segments, 25 MB per upload
//   on the free tier; its 413 as quoted in WEIFENG2333/VideoCaptioner#724 ("Request Entity Too
//   Large", code request_too_large). Its extra `x_groq` member is kept.
import {
  json,
  type Spoken,
  type SttProfile,
  type SttUpload,
  spokenText,
  text,
  whisperName,
  whisperSegments,
} from './profile';

/** 25 MiB: OpenAI's upload limit (the whole request). */
const OPENAI_LIMIT = 26_214_400;

function verboseJson(upload: SttUpload, spoken: Spoken) {
  const name = upload.file?.name ?? '';
  return {
    task: 'transcribe',
    language: whisperName(spoken.language),
    duration: spoken.durationMsOf(name) / 1000,
    text: spokenText(spoken).trim(),
    segments: whisperSegments(spoken),
  };
}

function answerAs(
  upload: SttUpload,
  spoken: Spoken,
  format: string | undefined,
  extra: Record<string, unknown> = {},
) {
  if (format === 'verbose_json') return json(200, { ...verboseJson(upload, spoken), ...extra });
  if (format === 'text') return text(200, `${spokenText(spoken).trim()}\n`);
  return json(200, { text: spokenText(spoken).trim(), ...extra });
}

/**
 * OpenAI with one of its transcription models; `uploadLimitBytes` other than OpenAI's 25 MiB
 * makes it the generic OpenAI-compatible server the older tests upload whole videos to.
 */
export function openAi(
  model: 'whisper-1' | 'gpt-4o-transcribe' | 'gpt-4o-mini-transcribe',
  { uploadLimitBytes = OPENAI_LIMIT }: { uploadLimitBytes?: number } = {},
) {
  const profile: SttProfile = {
    name: uploadLimitBytes === OPENAI_LIMIT ? `openai-${model}` : 'openai-compatible',
    basePath: '/v1',
    uploadPath: '/v1/audio/transcriptions',
    answer(upload, spoken) {
      if (upload.method !== 'POST' || upload.path !== '/v1/audio/transcriptions') {
        return json(404, {
          error: {
            message: `Invalid URL (${upload.method} ${upload.path})`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
      }
      if (upload.bodyBytes > uploadLimitBytes) {
        return json(413, {
          error: {
            message: `Maximum content size limit (${OPENAI_LIMIT}) exceeded (${upload.bodyBytes} bytes read)`,
            type: 'server_error',
            param: null,
            code: null,
          },
        });
      }
      const format = upload.fields.get('response_format')?.[0] ?? 'json';
      if (model !== 'whisper-1' && format === 'verbose_json') {
        return json(400, {
          error: {
            message: `response_format 'verbose_json' is not compatible with model '${model}-api-ev3'. Use 'json' or 'text' instead.`,
            type: 'invalid_request_error',
            param: 'response_format',
            code: 'unsupported_value',
          },
        });
      }
      if (model !== 'whisper-1') {
        const words = spokenText(spoken).trim().split(/\s+/).length;
        return answerAs(upload, spoken, format, {
          usage: {
            type: 'tokens',
            input_tokens: 100,
            output_tokens: words,
            total_tokens: 100 + words,
          },
        });
      }
      return answerAs(upload, spoken, format);
    },
  };
  return profile;
}

/** Groq's OpenAI-compatible endpoint with whisper-large-v3. */
export const groq: SttProfile = {
  name: 'groq',
  basePath: '/openai/v1',
  uploadPath: '/openai/v1/audio/transcriptions',
  answer(upload, spoken) {
    if (upload.method !== 'POST' || upload.path !== '/openai/v1/audio/transcriptions') {
      return json(404, {
        error: { message: 'Unknown request URL', type: 'invalid_request_error' },
      });
    }
    if (upload.bodyBytes > 25 * 1_048_576) {
      return json(413, {
        error: {
          message: 'Request Entity Too Large',
          type: 'invalid_request_error',
          code: 'request_too_large',
        },
      });
    }
    return answerAs(upload, spoken, upload.fields.get('response_format')?.[0], {
      x_groq: { id: 'req_01fake' },
    });
  },
};
