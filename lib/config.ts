// The only module that reads process.env. Every setting is validated once into a frozen Config
// (by a function's entry point at cold start, or by the local host and the tests, which build
// their own); a bad value fails fast naming the variable. The Config is then passed down.
import { isLoopbackHost } from './http/origin';
import * as z from './schema';
import { ClientSpecError, parseClientOrder } from './youtube/clients';

const int = (min: number, max: number, fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.minimum(min), z.maximum(max)), fallback);

/** A string, or undefined when unset or blank. */
const optionalString = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((value) => (value === '' ? undefined : value)),
  ),
);

/** A comma-separated list (empty when unset). */
const list = z.pipe(
  z._default(z.string(), ''),
  z.transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  ),
);

const url = (fallback?: string) => {
  const schema = z.url({ protocol: /^https?$/ });
  return fallback === undefined
    ? z.pipe(optionalString, z.optional(schema))
    : z._default(schema, fallback);
};

/**
 * A public origin: https, or http on a loopback host (what OAuth 2.1 allows without TLS), with
 * no path, query or credentials.
 */
const publicOrigin = z.pipe(
  optionalString,
  z.optional(
    z.url({ protocol: /^https?$/ }).check(
      z.refine((value) => {
        const url = new URL(value);
        return (
          (url.protocol === 'https:' || isLoopbackHost(url.hostname)) &&
          (url.pathname === '/' || url.pathname === '') &&
          url.search === '' &&
          url.hash === '' &&
          url.username === '' &&
          url.password === ''
        );
      }, 'must be an origin (https://host[:port], no path), or http on a loopback address'),
    ),
  ),
);

/** A non-empty string with a default. */
const text = (fallback: string, min = 1, max = Number.MAX_SAFE_INTEGER) =>
  z._default(z.string().check(z.minLength(min), z.maxLength(max)), fallback);

/** The speech-to-text backends TRANSCRIPTION_BACKEND names. */
export const TRANSCRIPTION_BACKENDS = ['openai-compatible', 'amazon-transcribe'] as const;

/** How long POST /summarize waits for its summary by default before answering 202. */
export const DEFAULT_SUMMARIZE_WAIT_MS = 20_000;
/** The most it may wait: its Lambda (and API Gateway's 30 s) must still be there to answer. */
export const MAX_SUMMARIZE_WAIT_MS = 25_000;
/**
 * Time kept between /summarize's wait and the end of its Lambda (the function's timeout, set by
 * the stack to the longest wait plus this): enough to read the job once more and answer 202.
 */
export const SUMMARIZE_MARGIN_MS = 3_000;
/**
 * The longest POST /ask may take to answer: its Lambda (and API Gateway's 30 s) must still be
 * there to send the answer or the 504.
 */
export const MAX_ASK_DEADLINE_MS = 25_000;
/** Time kept between /ask's deadline and the end of its Lambda: to cache and send the answer. */
export const ASK_MARGIN_MS = 2_000;
/** Kept between a job's budget and its worker's end: enough to store a failure and settle. */
export const WORKER_MARGIN_MS = 60_000;
/** How long MCP's summarize_video waits for its summary by default before it hands back the job. */
export const DEFAULT_MCP_WAIT_MS = 8_000;
/** A local job's budget by default: a laptop's model may take many minutes for a long video. */
export const DEFAULT_JOB_DEADLINE_MS = 3_600_000;

const envSchema = z.object({
  /** DynamoDB table holding users, login counters, caches and quotas. */
  TABLE_NAME: text('tubesum', 3, 255),
  AWS_REGION: text('us-east-1'),
  /** Local or test DynamoDB (the AWS SDK honours it too; we read it to log where we point). */
  AWS_ENDPOINT_URL_DYNAMODB: url(),
  /** Per-attempt deadline for one DynamoDB call; the SDK retries within MAX_ATTEMPTS. */
  DYNAMODB_TIMEOUT_MS: int(100, 20_000, 2_000),

  /** JWT signing secret (local use). Deployed stacks use JWT_SECRET_ARN instead. */
  JWT_SECRET: optionalString,
  /** Secrets Manager secret holding the signing key (set by the CDK stack). */
  JWT_SECRET_ARN: optionalString,
  /**
   * Secrets Manager secret of the operator's credentials, JSON {"youtubeProxyUrl",
   * "youtubeApiKey", "openaiApiKey", "transcriptionApiKey"} (the CDK stack fills it from its
   * parameters); its values fill YOUTUBE_PROXY_URL, YOUTUBE_API_KEY, OPENAI_API_KEY and
   * TRANSCRIPTION_API_KEY where those are unset.
   */
  CREDENTIALS_SECRET_ARN: optionalString,
  /** Secrets Manager endpoint override (tests point it at a local stub). */
  AWS_ENDPOINT_URL_SECRETS_MANAGER: url(),
  JWT_ISSUER: text('tubesum'),
  JWT_AUDIENCE: text('tubesum-api'),
  TOKEN_TTL_SECONDS: int(60, 86_400, 1_800),

  /**
   * The service's public origin (https://tubesum.example.com): the OAuth issuer, and the base of
   * the /mcp resource its access tokens are for. Unset: the origin each request came to.
   */
  PUBLIC_URL: publicOrigin,
  /** Lifetime of an OAuth access token for /mcp (at most an hour). */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int(60, 3_600, 3_600),
  /** An app connected with OAuth that does not refresh its tokens for this many days is disconnected. */
  OAUTH_GRANT_TTL_DAYS: int(1, 365, 30),
  /** OAuth client registrations (POST /oauth/register) per source address per hour; 0: no limit. */
  OAUTH_REGISTER_MAX_PER_IP: int(0, 100_000, 20),

  BCRYPT_COST: int(10, 15, 12),
  /** Failed logins per account from one address per window, before 429. */
  LOGIN_MAX_FAILURES: int(1, 100, 5),
  /** Failed logins per account from all addresses per window, before 429. */
  LOGIN_ACCOUNT_MAX_FAILURES: int(1, 100_000, 100),
  LOGIN_WINDOW_SECONDS: int(10, 86_400, 900),
  /** Successful registrations per source address per hour; 0 means no limit. */
  REGISTER_MAX_PER_IP: int(0, 100_000, 20),
  /**
   * bcrypt runs (password checks at /token, hashes at /register) per source address per
   * BCRYPT_WINDOW_SECONDS, taken before each runs; 0 means no limit.
   */
  BCRYPT_MAX_PER_IP: int(0, 100_000, 20),
  BCRYPT_WINDOW_SECONDS: int(10, 86_400, 60),

  /** Largest request body accepted, in bytes (checked before parsing). */
  MAX_BODY_BYTES: int(1_024, 1_048_576, 16_384),
  /** Comma-separated origins allowed by CORS; empty means no cross-origin access. */
  CORS_ORIGINS: list,

  /** Origin every YouTube request goes to (tests point it at a local server). */
  YOUTUBE_BASE_URL: url('https://www.youtube.com'),
  /** HTTP(S) proxy for YouTube requests: cloud IPs are often blocked by YouTube. */
  YOUTUBE_PROXY_URL: url(),
  /** Optional YouTube Data API v3 key: adds like/comment counts and an exact publish date. */
  YOUTUBE_API_KEY: optionalString,
  YOUTUBE_API_BASE_URL: url('https://www.googleapis.com'),
  YOUTUBE_TIMEOUT_MS: int(500, 30_000, 8_000),
  /**
   * Deadline of one caption download, shorter than the player's: a withheld track can take
   * seconds to answer nothing, and the next client's track may come at once.
   */
  YOUTUBE_CAPTION_TIMEOUT_MS: int(200, 30_000, 4_000),
  /**
   * InnerTube clients asked for a video's caption list, in order: comma-separated names, each
   * optionally NAME@VERSION (a retired version is a config change). Empty: ANDROID,IOS,VISIONOS.
   */
  YOUTUBE_CLIENTS: z.pipe(
    list,
    z.transform((items, context) => {
      try {
        return parseClientOrder(items);
      } catch (error) {
        if (!(error instanceof ClientSpecError)) throw error;
        context.issues.push({ code: 'custom', message: error.message, input: items });
        return z.NEVER;
      }
    }),
  ),
  /** Retries on a fresh proxy connection after YouTube blocks one (rotating proxies). */
  YOUTUBE_PROXY_RETRIES: int(0, 10, 2),
  YOUTUBE_MAX_RESPONSE_BYTES: int(65_536, 67_108_864, 8_388_608),

  /** Summaries per user per UTC day; 0 means unlimited. Cache hits do not count. */
  SUMMARY_DAILY_QUOTA: int(0, 1_000_000, 50),
  SUMMARY_CACHE_TTL_SECONDS: int(0, 31_536_000, 604_800),
  /** How long fetched transcripts and metadata are reused; 0 disables that cache. */
  TRANSCRIPT_CACHE_TTL_SECONDS: int(0, 31_536_000, 86_400),
  /** Model used when a request names none. */
  DEFAULT_MODEL: text('extractive'),
  /** Comma-separated model names this deployment offers; empty means the whole catalog. */
  ALLOWED_MODELS: list,
  /** JSON array of extra catalog entries (see docs/models.md). */
  MODEL_CATALOG_JSON: optionalString,
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: url(),
  /**
   * How long POST /summarize waits for its summary before it answers 202 with a job to poll
   * (a request's `Prefer: wait=N` may ask for less, `Prefer: respond-async` for none).
   */
  SUMMARIZE_WAIT_MS: int(0, MAX_SUMMARIZE_WAIT_MS, DEFAULT_SUMMARIZE_WAIT_MS),
  /**
   * How long MCP's summarize_video waits for its summary before it hands back the job id for
   * get_summary: shorter than the page's wait, so an agent is never held long.
   */
  MCP_WAIT_MS: int(0, MAX_SUMMARIZE_WAIT_MS, DEFAULT_MCP_WAIT_MS),
  /**
   * How long POST /ask has to answer (YouTube, then the model): past it, 504. Asks do not become
   * jobs, so it is bounded by API Gateway's 30 s like a route's wait.
   */
  ASK_DEADLINE_MS: int(1_000, MAX_ASK_DEADLINE_MS, MAX_ASK_DEADLINE_MS),
  /** A job's budget: a summary not made within it fails (504). The stack sets the worker's. */
  JOB_DEADLINE_MS: int(1_000, 86_400_000, DEFAULT_JOB_DEADLINE_MS),
  /**
   * How long a worker's hold on a job lasts without renewal (it renews a third of the way): a
   * worker that vanishes (killed, crashed) lets another resume the job after this.
   */
  JOB_LEASE_SECONDS: int(2, 900, 30),
  /** Jobs the local host works on at once (deployed: the stack's workerConcurrency). */
  JOB_CONCURRENCY: int(1, 64, 2),
  /** The SQS queue POST /summarize sends jobs to (set by the CDK stack; the local host runs its own). */
  JOB_QUEUE_URL: url(),
  /** SQS endpoint override (tests point it at a local stub). */
  AWS_ENDPOINT_URL_SQS: url(),
  BEDROCK_MAX_ATTEMPTS: int(1, 10, 4),
  BEDROCK_CONCURRENCY: int(1, 16, 4),

  /** An OpenAI-compatible server (Ollama, LM Studio, llama.cpp, vLLM, OpenAI), e.g. http://localhost:11434/v1. */
  OPENAI_BASE_URL: url(),
  /** Its API key, when it wants one (sent as a bearer token). */
  OPENAI_API_KEY: optionalString,
  /**
   * Models of that server offered as `used_model`: comma-separated names as the server knows
   * them, each optionally NAME@CONTEXT_TOKENS (default OPENAI_CONTEXT_TOKENS).
   */
  OPENAI_MODELS: list,
  /** Context size assumed for a model that does not say: Ollama's default window. */
  OPENAI_CONTEXT_TOKENS: int(1_024, 10_000_000, 4_096),
  OPENAI_MAX_ATTEMPTS: int(1, 10, 3),
  /** Parts of a long transcript summarised at once (a laptop's server runs one or two). */
  OPENAI_CONCURRENCY: int(1, 16, 2),

  /**
   * Speech-to-text for videos without usable captions (docs/transcription.md):
   * `openai-compatible` (any `/audio/transcriptions` server at TRANSCRIPTION_BASE_URL) or
   * `amazon-transcribe` (with TRANSCRIPTION_BUCKET; the stack sets both). Unset: the
   * OpenAI-compatible server when TRANSCRIPTION_BASE_URL is set, else no transcription.
   */
  TRANSCRIPTION_BACKEND: z.pipe(optionalString, z.optional(z.enum(TRANSCRIPTION_BACKENDS))),
  /** An OpenAI-compatible transcription server, e.g. http://localhost:8000/v1 (Speaches). */
  TRANSCRIPTION_BASE_URL: url(),
  /** The model it transcribes with. */
  TRANSCRIPTION_MODEL: text('whisper-1', 1, 200),
  /** Its API key, when it wants one (sent as a bearer token). */
  TRANSCRIPTION_API_KEY: optionalString,
  /** The S3 bucket Amazon Transcribe reads the audio from (set by the stack). */
  TRANSCRIPTION_BUCKET: optionalString,
  /** Largest audio the OpenAI-compatible server takes in one upload, in MB (OpenAI's: 25). */
  TRANSCRIPTION_MAX_UPLOAD_MB: int(1, 4_096, 25),
  /** Largest audio downloaded for a transcription, in MB. */
  TRANSCRIPTION_MAX_MB: int(1, 4_096, 200),
  /** Longest video transcribed, in minutes. */
  TRANSCRIPTION_MAX_MINUTES: int(1, 1_440, 180),
  /** Minutes of audio transcribed per user per UTC day; 0 means unlimited. */
  TRANSCRIPTION_DAILY_MINUTES: int(0, 1_000_000, 240),
  /** Amazon Transcribe and S3 endpoint overrides (tests point them at local stubs). */
  AWS_ENDPOINT_URL_TRANSCRIBE: url(),
  AWS_ENDPOINT_URL_S3: url(),

  /** Folder holding swagger-ui-dist's files; found automatically when unset. */
  SWAGGER_UI_DIR: optionalString,

  /** Address and port of the local host (`npm start`). */
  HOST: text('127.0.0.1'),
  PORT: int(0, 65_535, 3_000),

  /** Where the local host keeps DynamoDB Local's files and its generated JWT secret. */
  LOCAL_DATA_DIR: text('.data'),
});

export type Config = Readonly<z.output<typeof envSchema>>;

/** Every variable the service reads (docs/configuration.md documents each). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof Config)[];

/** Thrown when the environment holds an invalid setting; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates `env` and returns a frozen Config.
 * @throws ConfigError naming every invalid variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`invalid configuration:\n${z.prettifyError(parsed.error)}`);
  }
  return Object.freeze(parsed.data);
}

/**
 * The same Config with some settings replaced (the local host adds the secret it generated and
 * the DynamoDB Local it started). The values are not validated again: pass valid ones.
 */
export function withSettings(config: Config, changes: Partial<Config>): Config {
  return Object.freeze({ ...config, ...changes });
}
