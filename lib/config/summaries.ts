// Summaries' variables and their bounds: quotas and caches, the models offered, how long routes
// wait and jobs run, the job queue, Bedrock and an OpenAI-compatible server.
import { int, list, optionalString, text, url } from './values';

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

export const summarySettings = {
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
  /** Videos of one collection (a playlist, a channel) summarized at once. */
  COLLECTION_CONCURRENCY: int(1, 16, 2),
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
};
