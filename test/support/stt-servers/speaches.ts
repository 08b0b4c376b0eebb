// Speaches (formerly faster-whisper-server), as speaches-ai/speaches at
// 870e1e16a73452496e99d49f759eabd692a8e0e0 (2026-03-26) answers:
// - `POST /v1/audio/transcriptions` (src/speaches/routers/stt.py): the audio is decoded first
//   (dependencies.py audio_file_dependency, PyAV via faster_whisper.decode_audio: WebM/Opus and
//   MP4/AAC read; an unknown type is 415 "Failed to decode audio. The provided file type is not
//   supported."), then the model looked up (routers/utils.py get_model_card_data_or_raise): one
//   not downloaded is 404 `{"detail":"Model '<m>' is not installed locally. You can download
//   the model using `POST /v1/models`"}` (FastAPI's HTTPException body).
// - `POST /v1/models/{model_id}` downloads it (routers/models.py): 200 "Model '<m>' downloaded",
//   201 "Model '<m>' already exists".
// - `verbose_json` is openai.types.audio.TranscriptionVerbose (executors/whisper.py): `language`
//   as faster-whisper's code ("en"), `duration`, `text`, `segments` in seconds with Whisper's
//   fields. `json`: `{"text"}`. `response_format` defaults to json.
import { field, json, languageCode, type SttProfile, spokenText, text } from './profile';

export interface SpeachesOptions {
  /** Models downloaded when it starts. */
  downloaded?: string[];
}

/** Speaches, with these models already downloaded. */
export function speaches(options: SpeachesOptions = {}): SttProfile {
  const downloaded = new Set(options.downloaded ?? []);
  return {
    name: 'speaches',
    basePath: '/v1',
    uploadPath: '/v1/audio/transcriptions',
    answer(upload, spoken) {
      const download = /^\/v1\/models\/(.+)$/.exec(upload.path);
      if (upload.method === 'POST' && download?.[1]) {
        const model = decodeURIComponent(download[1]);
        if (downloaded.has(model)) return text(201, `Model '${model}' already exists`);
        downloaded.add(model);
        return text(200, `Model '${model}' downloaded`);
      }
      if (upload.method !== 'POST' || upload.path !== '/v1/audio/transcriptions') {
        return json(404, { detail: 'Not Found' });
      }
      const model = field(upload, 'model') ?? '';
      if (!downloaded.has(model)) {
        return json(404, {
          detail: `Model '${model}' is not installed locally. You can download the model using \`POST /v1/models\``,
        });
      }
      const format = field(upload, 'response_format') ?? 'json';
      if (format !== 'verbose_json') return json(200, { text: spokenText(spoken) });
      return json(200, {
        language: languageCode(spoken.language),
        duration: spoken.durationMsOf(upload.file?.name ?? '') / 1000,
        text: spokenText(spoken),
        segments: spoken.segments.map((segment, id) => ({
          id,
          seek: 0,
          start: segment.offsetMs / 1000,
          end: (segment.offsetMs + segment.durationMs) / 1000,
          text: ` ${segment.text}`,
          tokens: [400, 401],
          temperature: 0,
          avg_logprob: -0.2,
          compression_ratio: 1.5,
          no_speech_prob: 0.01,
        })),
        words: null,
      });
    },
  };
}
