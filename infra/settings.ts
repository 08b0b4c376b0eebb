// The deployment's knobs, read from CDK context (`cdk.json` or `-c key=value`) and validated at
// synth time, so a typo fails `cdk synth` naming the key instead of failing a cold start later.
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { TRANSCRIPTION_BACKENDS } from '../lib/config/transcription';
import * as z from '../lib/schema';
import { CREDENTIAL_PARAMETERS } from './constructs/credentials-secret';

/** Context keys and what they set (docs/aws.md's table lists the same; test/unit/readme.test.ts checks it). */
export const CONTEXT = {
  stackName: 'stackName',
  corsOrigins: 'corsOrigins',
  mcpAllowedOrigins: 'mcpAllowedOrigins',
  throttleRateLimit: 'throttleRateLimit',
  throttleBurstLimit: 'throttleBurstLimit',
  logRetentionDays: 'logRetentionDays',
  logLevel: 'logLevel',
  summarizeReservedConcurrency: 'summarizeReservedConcurrency',
  workerConcurrency: 'workerConcurrency',
  collectionConcurrency: 'collectionConcurrency',
  youtubeClients: 'youtubeClients',
  youtubeProxyRetries: 'youtubeProxyRetries',
  allowedModels: 'allowedModels',
  defaultModel: 'defaultModel',
  summaryDailyQuota: 'summaryDailyQuota',
  modelCatalogJson: 'modelCatalogJson',
  openaiBaseUrl: 'openaiBaseUrl',
  openaiModels: 'openaiModels',
  alarmEmail: 'alarmEmail',
  transcription: 'transcription',
  transcriptionBaseUrl: 'transcriptionBaseUrl',
  transcriptionModel: 'transcriptionModel',
  transcriptionMaxMinutes: 'transcriptionMaxMinutes',
  transcriptionDailyMinutes: 'transcriptionDailyMinutes',
} as const;

/**
 * Settings both sides of a summary must agree on, context key -> variable: the catalog (POST
 * /summarize checks `used_model` and picks the default, the worker runs the model) and the daily
 * quota (/summarize reserves a unit, the worker gives it back when a run fails on our side).
 */
export const CATALOG_CONTEXT = {
  allowedModels: 'ALLOWED_MODELS',
  defaultModel: 'DEFAULT_MODEL',
  summaryDailyQuota: 'SUMMARY_DAILY_QUOTA',
  modelCatalogJson: 'MODEL_CATALOG_JSON',
  openaiBaseUrl: 'OPENAI_BASE_URL',
  openaiModels: 'OPENAI_MODELS',
} as const;

/** How the worker reaches YouTube, context key -> variable (only the worker fetches). */
export const YOUTUBE_CONTEXT = {
  youtubeClients: 'YOUTUBE_CLIENTS',
  youtubeProxyRetries: 'YOUTUBE_PROXY_RETRIES',
} as const;

/**
 * How videos without captions are transcribed, context key -> variable: for the worker, and for
 * /ask and /mcp, whose problems say whether a summary would transcribe the video.
 * `transcription` itself (the backend) is read apart: amazon-transcribe adds the audio bucket.
 */
export const TRANSCRIPTION_CONTEXT = {
  transcriptionBaseUrl: 'TRANSCRIPTION_BASE_URL',
  transcriptionModel: 'TRANSCRIPTION_MODEL',
  transcriptionMaxMinutes: 'TRANSCRIPTION_MAX_MINUTES',
  transcriptionDailyMinutes: 'TRANSCRIPTION_DAILY_MINUTES',
} as const;

/** Every summary setting that comes from context (both maps above). */
export const SUMMARY_CONTEXT = { ...CATALOG_CONTEXT, ...YOUTUBE_CONTEXT } as const;

type Variables<T extends Record<string, string>> = Partial<Record<T[keyof T], string>>;

// SQS event sources accept a maximum concurrency from 2 to 1,000.
const MIN_WORKER_CONCURRENCY = 2;
const MAX_WORKER_CONCURRENCY = 1_000;
// Four summaries at once: a team's burst is worked off in minutes, while at most four runs
// call Bedrock (each with up to BEDROCK_CONCURRENCY parts in flight) at any moment.
const DEFAULT_WORKER_CONCURRENCY = 4;
// COLLECTION_CONCURRENCY's range (lib/config/summaries.ts); unset, the code's default (2).
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

/** Thrown for a bad context value; the message names the key. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** A context value as a trimmed string, or undefined when unset or empty. */
function text(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return JSON.stringify(value);
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A list from a JSON array (cdk.json) or a comma-separated string (`-c key=a,b`). */
function list(node: Node, key: string): string[] {
  const value: unknown = node.tryGetContext(key);
  const items = Array.isArray(value) ? value.map(String) : (text(node, key)?.split(',') ?? []);
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

function integer(node: Node, key: string, min: number, max: number): number | undefined {
  const raw = text(node, key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SettingsError(`context ${key} must be an integer from ${min} to ${max} (got ${raw})`);
  }
  return value;
}

/**
 * Reads and validates every context value the stack uses.
 * @throws SettingsError naming the key of the first bad value.
 */
export function readSettings(node: Node): StackSettings {
  // Credentials as context (`-c youtubeProxyUrl=...`) would sit in the template: they are stack
  // parameters, stored in a secret (infra/constructs/credentials-secret.ts).
  for (const [key, parameter] of Object.entries(CREDENTIAL_PARAMETERS)) {
    if (node.tryGetContext(key) !== undefined) {
      throw new SettingsError(
        `context ${key} would put a credential in the template: remove it and pass it as a stack parameter instead (npx cdk deploy --parameters ${parameter}=...), which the stack keeps in Secrets Manager`,
      );
    }
  }
  const corsOrigins = list(node, CONTEXT.corsOrigins);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new SettingsError(
        `context ${CONTEXT.corsOrigins}: "${origin}" is not an origin like https://app.example.com (no path, no trailing slash)`,
      );
    }
  }

  const mcpAllowed =
    node.tryGetContext(CONTEXT.mcpAllowedOrigins) === undefined
      ? undefined
      : list(node, CONTEXT.mcpAllowedOrigins);
  for (const origin of mcpAllowed ?? []) {
    // Origins only: `*` would let any site's page call /mcp (the rule is against DNS rebinding).
    if (!/^https?:\/\/[^/\s*]+$/.test(origin)) {
      throw new SettingsError(
        `context ${CONTEXT.mcpAllowedOrigins}: "${origin}" is not an origin like https://claude.ai (no path, no trailing slash, no *)`,
      );
    }
  }

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

  const days = integer(node, CONTEXT.logRetentionDays, 1, 3_653) ?? DEFAULT_RETENTION_DAYS;
  const allowedDays = Object.values(RetentionDays).filter(
    (value): value is RetentionDays => typeof value === 'number',
  );
  if (!allowedDays.includes(days as RetentionDays)) {
    throw new SettingsError(
      `context ${CONTEXT.logRetentionDays} must be one of CloudWatch's values: ${allowedDays.join(', ')}`,
    );
  }

  const logLevel = (text(node, CONTEXT.logLevel) ?? 'INFO').toUpperCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new SettingsError(`context ${CONTEXT.logLevel} must be one of ${LOG_LEVELS.join(', ')}`);
  }

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

  const alarmEmail = text(node, CONTEXT.alarmEmail);
  if (alarmEmail !== undefined && !z.email().safeParse(alarmEmail).success) {
    throw new SettingsError(
      `context ${CONTEXT.alarmEmail}: "${alarmEmail}" is not an email address`,
    );
  }

  /** The variables of `keys` that context sets. */
  const variables = (keys: Record<string, string>) => {
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
  };

  const transcription = variables(TRANSCRIPTION_CONTEXT);
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

  return {
    corsOrigins,
    ...(mcpAllowed === undefined ? {} : { mcpAllowedOrigins: mcpAllowed }),
    throttleRateLimit,
    throttleBurstLimit,
    logRetention: days as RetentionDays,
    logLevel,
    ...(summarizeReservedConcurrency === undefined ? {} : { summarizeReservedConcurrency }),
    workerConcurrency,
    ...(collectionConcurrency === undefined ? {} : { collectionConcurrency }),
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
    catalog: variables(CATALOG_CONTEXT),
    youtube: variables(YOUTUBE_CONTEXT),
    ...(transcriptionBackend ? { transcriptionBackend } : {}),
    transcription,
  };
}
