// whisper.cpp's `whisper-server`, as examples/server/server.cpp of ggml-org/whisper.cpp at
// 233fe1fc9b48a09e361d3594520838ca266537fe (2026-08-22) answers:
// - one POST path, `--request-path` + `--inference-path` (default `/inference`); any other path
//   is its error handler's 404 "File Not Found (<path>)" as text/plain.
// - fields read by get_req_parameters: `file`, `language`, `response_format`, temperature...;
//   `model` and `timestamp_granularities[]` are not read. `language` absent: the server's `-l`
//   (default "en": every language transcribed as English); "auto" detects it.
// - the audio is read by miniaudio/stb_vorbis (examples/common-whisper.cpp: WAV, MP3, FLAC,
//   Vorbis) unless started with `--convert` (ffmpeg to WAV first). Unreadable audio:
//   `{"error":"failed to read audio data"}`, HTTP 400 since #3707 (136dc2eb1, 2026-03-16, in
//   v1.8.4), HTTP 200 before; with --convert, "Failed to execute ffmpeg command." (500) or
//   "failed to read WAV file" (400). No `file` field: 400 "no 'file' field in the request".
// - `verbose_json`: `task`, `language` as whisper_lang_str_full ("english"), `duration` in s,
//   `text` (segments, each ending in "\n"), `segments` with `start`/`end` in seconds (t0 * 0.01),
//   `tokens`, `words`, `temperature`, `avg_logprob`, `no_speech_prob`; and, unless started
//   with `-nlp`, `detected_language` (full name), `detected_language_probability`,
//   `language_probabilities` from whisper_lang_auto_detect. `json`: `{"text"}`.
// The fake "decodes" by the file's first bytes (RIFF/ID3/MPEG frame/fLaC/OggS) and "detects"
// the language the test says was spoken.
import { field, json, type Spoken, type SttProfile, text, whisperName } from './profile';

export interface WhisperCppOptions {
  /** Started with `--convert` (ffmpeg). */
  convert?: boolean;
  /** `-l`: "en" by default, or "auto". */
  language?: string;
  /** `--inference-path` (default /inference). */
  inferencePath?: string;
  /** The status of an error answer: 400 from v1.8.4, 200 before. */
  errorStatus?: 200 | 400;
}

const READABLE = [
  [0x52, 0x49, 0x46, 0x46], // RIFF (WAV)
  [0x49, 0x44, 0x33], // ID3 (MP3)
  [0xff, 0xfb], // an MPEG audio frame
  [0x66, 0x4c, 0x61, 0x43], // fLaC
  [0x4f, 0x67, 0x67, 0x53], // OggS (Vorbis)
];

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((byte, i) => bytes[i] === byte);

function verboseJson(spoken: Spoken, language: string, fileName: string) {
  const segments = spoken.segments.map((segment, id) => ({
    id,
    text: ` ${segment.text}`,
    // t0 and t1 are centiseconds; the server writes t * 0.01.
    start: Math.round(segment.offsetMs / 10) * 0.01,
    end: Math.round((segment.offsetMs + segment.durationMs) / 10) * 0.01,
    tokens: [50364, 400],
    words: [],
    temperature: 0,
    avg_logprob: -0.25,
    no_speech_prob: 0.02,
  }));
  return {
    task: 'transcribe',
    language: whisperName(language),
    duration: spoken.durationMsOf(fileName) / 1000,
    text: segments.map((segment) => `${segment.text}\n`).join(''),
    detected_language: whisperName(spoken.language),
    detected_language_probability: 0.97,
    language_probabilities: { [whisperName(spoken.language)]: 0.97 },
    segments,
  };
}

/** whisper.cpp's server started with these options. */
export function whisperCpp(options: WhisperCppOptions = {}): SttProfile {
  const inferencePath = options.inferencePath ?? '/inference';
  const errorStatus = options.errorStatus ?? 400;
  const serverLanguage = options.language ?? 'en';
  return {
    name: `whisper.cpp${options.convert ? ' --convert' : ''} -l ${serverLanguage}`,
    basePath: inferencePath === '/inference' ? '/inference' : '',
    uploadPath: inferencePath,
    answer(upload, spoken) {
      if (upload.method !== 'POST' || upload.path !== inferencePath) {
        return text(404, `File Not Found (${upload.path})`);
      }
      const file = upload.file;
      if (!file) return json(400, { error: "no 'file' field in the request" });
      if (!options.convert && !READABLE.some((magic) => startsWith(file.bytes, magic))) {
        return json(errorStatus, { error: 'failed to read audio data' });
      }
      const asked = field(upload, 'language') ?? serverLanguage;
      const language = asked === 'auto' ? spoken.language : asked;
      const format = field(upload, 'response_format') ?? 'json';
      const answer = verboseJson(spoken, language, file.name);
      if (format === 'verbose_json') return json(200, answer);
      if (format === 'text') return text(200, answer.text, 'text/html; charset=utf-8');
      return json(200, { text: answer.text });
    },
  };
}
