// A local host wired to the fake YouTube and the Bedrock stub, for /summarize tests over HTTP.
import { type BedrockStub, startBedrockStub } from './bedrock-stub';
import { type FakeYouTube, startFakeYouTube } from './fake-youtube';
import { startTestHost, type TestHost } from './host';
import { type OpenAiStub, startOpenAiStub } from './openai-stub';

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
    YOUTUBE_TIMEOUT_MS: '1500',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.endpoint,
    SUMMARIZE_WAIT_MS: '5000',
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
