// LocalAI's `POST /v1/audio/transcriptions`, as mudler/LocalAI answers it
// (core/http/endpoints/openai/transcription.go, core/schema/transcription.go):
// - up to v4.1.3 (the tag read) the answer is its TranscriptionResult as it is: `segments`
//   (omitted when empty) whose `start`/`end` are Go time.Duration values, which encoding/json
//   writes as integer nanoseconds (backend/go/whisper/gowhisper.go: centiseconds * 10,000,000),
//   and `text`; no `language`, no `duration`. `json` drops the segments. (mudler/LocalAI#5327
//   reports the answer is not OpenAI's verbose_json.)
// - from v4.2.0 (af8351853, 2026-05-06, read at 82c191afadf5f005281e798ccfa0ffd0d5805030) it
//   answers TranscriptionResultSeconds: times in seconds (Duration.Seconds()), `words`,
//   `language` (the one asked, omitted when none), `duration`.
// - a request without `model`: echo's 400; errors are `{"error":{"code","message","type"}}`
//   (core/http/app.go's HTTPErrorHandler).
// - the body limit: UPLOAD_LIMIT / LOCALAI_UPLOAD_LIMIT, 15 MB by default (core/cli/run.go,
//   core/config/application_config.go), echo's BodyLimit: 413 "Request Entity Too Large" as
//   quoted in mudler/LocalAI#1733.
import { field, json, type SttProfile, spokenText } from './profile';

export interface LocalAiOptions {
  /** '4.1': times in nanoseconds; '4.2': in seconds. */
  version: '4.1' | '4.2';
  /** UPLOAD_LIMIT in MB (default 15). */
  uploadLimitMb?: number;
}

/** LocalAI of this version. */
export function localAi(options: LocalAiOptions): SttProfile {
  const limit = (options.uploadLimitMb ?? 15) * 1_048_576;
  return {
    name: `localai-${options.version}`,
    basePath: '/v1',
    uploadPath: '/v1/audio/transcriptions',
    answer(upload, spoken) {
      if (upload.bodyBytes > limit) {
        return json(413, { error: { code: 413, message: 'Request Entity Too Large', type: '' } });
      }
      if (upload.method !== 'POST' || upload.path !== '/v1/audio/transcriptions') {
        return json(404, { error: { code: 404, message: 'Not Found', type: '' } });
      }
      if (!field(upload, 'model')) {
        return json(400, { error: { code: 400, message: 'Bad Request', type: '' } });
      }
      const format = field(upload, 'response_format') ?? '';
      const textOf = spokenText(spoken).trim();
      if (options.version === '4.1') {
        const segments = spoken.segments.map((segment, id) => ({
          id,
          // time.Duration: nanoseconds, from whisper's centiseconds.
          start: Math.round(segment.offsetMs / 10) * 10_000_000,
          end: Math.round((segment.offsetMs + segment.durationMs) / 10) * 10_000_000,
          text: ` ${segment.text}`,
          tokens: [400, 401],
        }));
        return json(200, format === 'json' ? { text: textOf } : { segments, text: textOf });
      }
      const language = field(upload, 'language');
      const segments =
        format === 'json'
          ? []
          : spoken.segments.map((segment, id) => ({
              id,
              start: segment.offsetMs / 1000,
              end: (segment.offsetMs + segment.durationMs) / 1000,
              text: ` ${segment.text}`,
              tokens: [400, 401],
              words: [],
            }));
      return json(200, {
        segments,
        words: [],
        text: textOf,
        ...(language ? { language } : {}),
        duration: spoken.durationMsOf(upload.file?.name ?? '') / 1000,
      });
    },
  };
}
