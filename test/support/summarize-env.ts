// A local host wired to the fake YouTube and the Bedrock stub, for /summarize tests over HTTP.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type BedrockStub, startBedrockStub } from './bedrock-stub';
import { type FakeYouTube, startFakeYouTube } from './fake-youtube';
import { startTestHost, type TestHost, type TestResponse } from './host';
import { type OpenAiStub, startOpenAiStub } from './openai-stub';
import { startTranscriptionStub, type TranscriptionStub } from './transcription-stub';

export interface SummarizeEnv {
  host: TestHost;
  youtube: FakeYouTube;
  bedrock: BedrockStub;
  /** The OpenAI-compatible server of OPENAI_MODELS (OPENAI_MODEL_NAME). */
  openai: OpenAiStub;
  token: string;
  close(): Promise<void>;
}

/** A model with a tiny context, so a 3-hour transcript must be summarised in parts. */
export const TINY_MODEL = {
  name: 'tiny',
  modelId: 'us.example.tiny-context-v1:0',
  contextTokens: 6_000,
  maxOutputTokens: 2_000,
};

/** The model the OpenAI-compatible stub offers, as OPENAI_MODELS names it. */
export const OPENAI_MODEL_NAME = 'llama3.2';

/** Starts everything and logs a fresh user in. */
export async function startSummarizeEnv(env: Record<string, string> = {}): Promise<SummarizeEnv> {
  const youtube = await startFakeYouTube();
  const bedrock = await startBedrockStub();
  const openai = await startOpenAiStub();
  const host = await startTestHost({
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_API_BASE_URL: youtube.baseUrl,
    // The service's own defaults: the fake YouTube answers in milliseconds on an idle machine and
    // seconds on a loaded one, and a bound it misses fails a test that has nothing to do with
    // time. A test of a YouTube that never answers sets shorter ones (any bound meets a hang).
    YOUTUBE_TIMEOUT_MS: '8000',
    YOUTUBE_CAPTION_TIMEOUT_MS: '4000',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.endpoint,
    // Long enough for what the tests expect answered directly (an offline summary, a stub's)
    // even on a loaded machine; a test of the wait ending first sets its own, shorter than the
    // model it scripts takes.
    SUMMARIZE_WAIT_MS: '15000',
    BEDROCK_MAX_ATTEMPTS: '3',
    MODEL_CATALOG_JSON: JSON.stringify([TINY_MODEL]),
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_MODELS: `${OPENAI_MODEL_NAME}@32768`,
    SUMMARY_DAILY_QUOTA: '0',
    // Tests swap the track the fake YouTube serves between requests for the same video.
    TRANSCRIPT_CACHE_TTL_SECONDS: '0',
    ...env,
  });
  const { token } = await host.registerAndLogin();
  return {
    host,
    youtube,
    bedrock,
    openai,
    token,
    async close() {
      await host.close();
      await youtube.close();
      await bedrock.close();
      await openai.close();
    },
  };
}

/** Whether a job (a GET /summaries/{id} body) has ended. */
export const ended = (job: { status: string }) =>
  job.status === 'done' || job.status === 'failed' || job.status === 'cancelled';

/**
 * Polls GET /summaries/{id} until `until` holds for the job (default: it ended), every `everyMs`;
 * returns the last answer and every job body seen. Fails after `timeoutMs`.
 */
export async function pollJob(
  host: TestHost,
  token: string,
  id: string,
  options: {
    // biome-ignore lint/suspicious/noExplicitAny: a job body as the test reads it
    until?: (job: any) => boolean;
    timeoutMs?: number;
    everyMs?: number;
  } = {},
): Promise<{ last: TestResponse; seen: unknown[] }> {
  const until = options.until ?? ended;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const seen: unknown[] = [];
  for (;;) {
    const last = await host.request('GET', `/summaries/${id}`, { token });
    if (last.status !== 200)
      throw new Error(`GET /summaries/${id} answered ${last.status}: ${last.text}`);
    seen.push(last.body);
    if (until(last.body)) return { last, seen };
    if (Date.now() > deadline) throw new Error(`job ${id} still ${last.body.status}: ${last.text}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 100));
  }
}

/** The job id of a 202's Location (or a 200's Content-Location). */
export function jobIdOf(response: TestResponse): string {
  const location = response.headers.get('location') ?? response.headers.get('content-location');
  const id = /^\/summaries\/([A-Za-z0-9_-]+)$/.exec(location ?? '')?.[1];
  if (!id) throw new Error(`no job location in ${response.status}: ${location}`);
  return id;
}

/**
 * A summarize env whose transcription backend is the OpenAI-compatible stub, started before the
 * file's tests, both reset before each test and closed after them (vitest's hooks).
 * `settings` go on top of the backend's URL and a wait long enough for a transcription.
 */
export function useTranscriptionEnv(settings: Record<string, string> = {}) {
  const made: { env?: SummarizeEnv; stt?: TranscriptionStub } = {};
  beforeAll(async () => {
    made.stt = await startTranscriptionStub();
    made.env = await startSummarizeEnv({
      TRANSCRIPTION_BASE_URL: made.stt.baseUrl,
      // A transcription adds a download and an upload: answers wait for it (no wall-clock bound).
      SUMMARIZE_WAIT_MS: '25000',
      ...settings,
    });
  });
  afterAll(async () => {
    await made.env?.close();
    await made.stt?.close();
  });
  beforeEach(() => {
    made.stt?.reset();
    made.env?.youtube.reset();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the transcription env is used before it started');
    return value;
  };
  return {
    get env() {
      return started(made.env);
    },
    get stt() {
      return started(made.stt);
    },
  };
}
