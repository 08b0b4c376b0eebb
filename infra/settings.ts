// The deployment's knobs, read from CDK context (`cdk.json` or `-c key=value`) and validated at
// synth time, so a typo fails `cdk synth` naming the key instead of failing a cold start later.
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { TRANSCRIPTION_BACKENDS } from '../lib/config/transcription';
import * as z from '../lib/schema';
import { CREDENTIAL_PARAMETERS } from './constructs/credentials-secret';
import {
  CATALOG_CONTEXT,
  CONTEXT,
  TRANSCRIPTION_CONTEXT,
  YOUTUBE_CONTEXT,
} from './settings/context';
import { integer, list, SettingsError, text } from './settings/values';

export {
  CATALOG_CONTEXT,
  CONTEXT,
  SUMMARY_CONTEXT,
  TRANSCRIPTION_CONTEXT,
  YOUTUBE_CONTEXT,
} from './settings/context';
export { SettingsError } from './settings/values';

type Variables<T extends Record<string, string>> = Partial<Record<T[keyof T], string>>;

// SQS event sources accept a maximum concurrency from 2 to 1,000.
const MIN_WORKER_CONCURRENCY = 2;
const MAX_WORKER_CONCURRENCY = 1_000;
// Four summaries at once: a team's burst is worked off in minutes, while at most four runs
// call Bedrock (each with up to BEDROCK_CONCURRENCY parts in flight) at any moment.
const DEFAULT_WORKER_CONCURRENCY = 4;
// COLLECTION_CONCURRENCY's range, as its Config reads it; unset, the code's default (2).
const MAX_COLLECTION_CONCURRENCY = 16;

export interface StackSettings {
  /** Origins API Gateway answers CORS for; empty means no CORS configuration at all. */
  corsOrigins: string[];
  /** Browser origins /mcp takes besides its own (MCP_ALLOWED_ORIGINS); unset: the code default. */
  mcpAllowedOrigins?: string[];
  /** Stage-wide steady rate (requests per second) and burst. */
  throttleRateLimit: number;
  throttleBurstLimit: number;
  logRetention: RetentionDays;
  /** POWERTOOLS_LOG_LEVEL of every function. */
  logLevel: string;
  /** Subscribed to the alarm topic; unset means no subscription (the topic is still there). */
  alarmEmail?: string;
  /** Caps concurrent /summarize executions (requests waiting on jobs); unset means no cap. */
  summarizeReservedConcurrency?: number;
  /** Workers the job queue invokes at once: the Bedrock cost guard and the backlog's pace. */
  workerConcurrency: number;
  /** Videos of one collection summarized at once (the worker's COLLECTION_CONCURRENCY). */
  collectionConcurrency?: number;
  /** The catalog and quota, for /summarize and the worker (unset = code default). */
  catalog: Variables<typeof CATALOG_CONTEXT>;
  /** The YouTube settings, for the worker (unset = code default). */
  youtube: Variables<typeof YOUTUBE_CONTEXT>;
  /** The transcription backend (`-c transcription`), when videos without captions are transcribed. */
  transcriptionBackend?: (typeof TRANSCRIPTION_BACKENDS)[number];
  /** Its settings, for the worker, /ask and /mcp (TRANSCRIPTION_BACKEND among them). */
  transcription: Record<string, string>;
}

// A small deployment (a person or a team): 20 requests/s sustained with bursts of 40 is far more
// than people clicking, yet keeps a flood of bcrypt-heavy logins (~0.34 s of a full vCPU each)
// or summaries from running up the Lambda and Bedrock bill. Raise them with context.
const DEFAULT_RATE = 20;
const DEFAULT_BURST = 40;
// A month of logs is enough to investigate an incident and costs little at this volume.
const DEFAULT_RETENTION_DAYS = 30;
const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];

/**
 * Credentials as context (`-c youtubeProxyUrl=...`) would sit in the template: they are stack
 * parameters, stored in a secret.
 */
function refuseCredentials(node: Node) {
  for (const [key, parameter] of Object.entries(CREDENTIAL_PARAMETERS)) {
    if (node.tryGetContext(key) !== undefined) {
      throw new SettingsError(
        `context ${key} would put a credential in the template: remove it and pass it as a stack parameter instead (npx cdk deploy --parameters ${parameter}=...), which the stack keeps in Secrets Manager`,
      );
    }
  }
}

function corsOriginsOf(node: Node): string[] {
  const corsOrigins = list(node, CONTEXT.corsOrigins);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new SettingsError(
        `context ${CONTEXT.corsOrigins}: "${origin}" is not an origin like https://app.example.com (no path, no trailing slash)`,
      );
    }
  }
  return corsOrigins;
}

function mcpAllowedOriginsOf(node: Node): string[] | undefined {
  if (node.tryGetContext(CONTEXT.mcpAllowedOrigins) === undefined) return undefined;
  const mcpAllowed = list(node, CONTEXT.mcpAllowedOrigins);
  for (const origin of mcpAllowed) {
    // Origins only: `*` would let any site's page call /mcp (the rule is against DNS rebinding).
    if (!/^https?:\/\/[^/\s*]+$/.test(origin)) {
      throw new SettingsError(
        `context ${CONTEXT.mcpAllowedOrigins}: "${origin}" is not an origin like https://claude.ai (no path, no trailing slash, no *)`,
      );
    }
  }
  return mcpAllowed;
}

function throttleOf(node: Node) {
  // 5,000: an account's default burst quota, and the burst may not be below the rate.
  const throttleRateLimit = integer(node, CONTEXT.throttleRateLimit, 1, 5_000) ?? DEFAULT_RATE;
  // Unset, the burst follows a raised rate (two seconds' worth), so raising one is enough.
  const throttleBurstLimit =
    integer(node, CONTEXT.throttleBurstLimit, 1, 5_000) ??
    Math.min(5_000, Math.max(DEFAULT_BURST, 2 * throttleRateLimit));

  if (throttleBurstLimit < throttleRateLimit) {
    // API Gateway's token bucket holds `burst` tokens and refills at `rate` per second: with
    // fewer tokens than a second's worth, the requests of one busy second are refused before
    // the rate is reached. Almost always a swapped pair of values.
    throw new SettingsError(
      `context ${CONTEXT.throttleBurstLimit} (${throttleBurstLimit}) must be at least ${CONTEXT.throttleRateLimit} (${throttleRateLimit}): API Gateway's bucket holds the burst, so a smaller one refuses requests below the rate`,
    );
  }
  return { throttleRateLimit, throttleBurstLimit };
}

function logRetentionOf(node: Node): RetentionDays {
  const days = integer(node, CONTEXT.logRetentionDays, 1, 3_653) ?? DEFAULT_RETENTION_DAYS;
  const allowedDays = Object.values(RetentionDays).filter(
    (value): value is RetentionDays => typeof value === 'number',
  );
  if (!allowedDays.includes(days as RetentionDays)) {
    throw new SettingsError(
      `context ${CONTEXT.logRetentionDays} must be one of CloudWatch's values: ${allowedDays.join(', ')}`,
    );
  }
  return days as RetentionDays;
}

function logLevelOf(node: Node): string {
  const logLevel = (text(node, CONTEXT.logLevel) ?? 'INFO').toUpperCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new SettingsError(`context ${CONTEXT.logLevel} must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return logLevel;
}

function alarmEmailOf(node: Node): string | undefined {
  const alarmEmail = text(node, CONTEXT.alarmEmail);
  if (alarmEmail !== undefined && !z.email().safeParse(alarmEmail).success) {
    throw new SettingsError(
      `context ${CONTEXT.alarmEmail}: "${alarmEmail}" is not an email address`,
    );
  }
  return alarmEmail;
}

/** The concurrency caps: /summarize's reserved runs, the workers, a collection's videos. */
function concurrencyOf(node: Node) {
  const summarizeReservedConcurrency = integer(
    node,
    CONTEXT.summarizeReservedConcurrency,
    1,
    10_000,
  );
  const workerConcurrency =
    integer(node, CONTEXT.workerConcurrency, MIN_WORKER_CONCURRENCY, MAX_WORKER_CONCURRENCY) ??
    DEFAULT_WORKER_CONCURRENCY;
  const collectionConcurrency = integer(
    node,
    CONTEXT.collectionConcurrency,
    1,
    MAX_COLLECTION_CONCURRENCY,
  );
  return {
    ...(summarizeReservedConcurrency === undefined ? {} : { summarizeReservedConcurrency }),
    workerConcurrency,
    ...(collectionConcurrency === undefined ? {} : { collectionConcurrency }),
  };
}

/** The variables of `keys` that context sets. */
function variables(node: Node, keys: Record<string, string>) {
  const values: Record<string, string> = {};
  for (const [key, variable] of Object.entries(keys)) {
    // Lists may come as JSON arrays from cdk.json; the variable is comma-separated.
    const isList =
      key === CONTEXT.allowedModels ||
      key === CONTEXT.youtubeClients ||
      key === CONTEXT.openaiModels;
    const value = isList ? list(node, key).join(',') : text(node, key);
    if (value) values[variable] = value;
  }
  return values;
}

/** The transcription backend and its variables; a base URL alone means openai-compatible. */
function transcriptionOf(node: Node) {
  const transcription = variables(node, TRANSCRIPTION_CONTEXT);
  const backend = text(node, CONTEXT.transcription);
  if (backend !== undefined && !(TRANSCRIPTION_BACKENDS as readonly string[]).includes(backend)) {
    throw new SettingsError(
      `context ${CONTEXT.transcription} must be one of ${TRANSCRIPTION_BACKENDS.join(', ')} (got ${backend})`,
    );
  }
  const transcriptionBackend =
    (backend as StackSettings['transcriptionBackend']) ??
    (transcription.TRANSCRIPTION_BASE_URL === undefined ? undefined : 'openai-compatible');
  if (transcriptionBackend === 'openai-compatible' && !transcription.TRANSCRIPTION_BASE_URL) {
    throw new SettingsError(
      `context ${CONTEXT.transcription}=openai-compatible needs ${CONTEXT.transcriptionBaseUrl} (the server's /v1 URL)`,
    );
  }
  if (transcriptionBackend) transcription.TRANSCRIPTION_BACKEND = transcriptionBackend;
  return { ...(transcriptionBackend ? { transcriptionBackend } : {}), transcription };
}

/**
 * Reads and validates every context value the stack uses.
 * @throws SettingsError naming the key of the first bad value.
 */
export function readSettings(node: Node): StackSettings {
  refuseCredentials(node);
  const corsOrigins = corsOriginsOf(node);
  const mcpAllowed = mcpAllowedOriginsOf(node);
  const throttle = throttleOf(node);
  const logRetention = logRetentionOf(node);
  const logLevel = logLevelOf(node);
  const concurrency = concurrencyOf(node);
  const alarmEmail = alarmEmailOf(node);
  const transcription = transcriptionOf(node);
  return {
    corsOrigins,
    ...(mcpAllowed === undefined ? {} : { mcpAllowedOrigins: mcpAllowed }),
    ...throttle,
    logRetention,
    logLevel,
    ...concurrency,
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
    catalog: variables(node, CATALOG_CONTEXT),
    youtube: variables(node, YOUTUBE_CONTEXT),
    ...transcription,
  };
}
