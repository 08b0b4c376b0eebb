// Where the multipart upload goes: `{TRANSCRIPTION_BASE_URL}/audio/transcriptions` as OpenAI and
// most servers take it, TRANSCRIPTION_PATH under the base URL when set, or the base URL itself
// when it already names whisper.cpp's `/inference` (its server's default path,
// examples/server/server.cpp `inference_path`).

export interface Endpoint {
  /** The absolute URL posted to. */
  url: string;
  /**
   * Whether it is whisper.cpp's own `/inference` path: that server takes `language=auto` (it
   * transcribes every language as English otherwise, unless started with `-l auto`).
   */
  whisperCpp: boolean;
}

/** The endpoint of TRANSCRIPTION_BASE_URL and TRANSCRIPTION_PATH. */
export function endpointOf(baseUrl: string, path?: string): Endpoint {
  const base = baseUrl.replace(/\/+$/, '');
  const url =
    path !== undefined
      ? `${base}${path}`
      : /\/inference$/.test(new URL(base).pathname)
        ? base
        : `${base}/audio/transcriptions`;
  return { url, whisperCpp: /\/inference$/.test(new URL(url).pathname) };
}
