// The only module that reads process.env. Every setting is validated once into a frozen Config
// (by a function's entry point at cold start, or by the local host and the tests, which build
// their own); a bad value fails fast naming the variable. The Config is then passed down.
// Each area's variables are in config/ (accounts, youtube, summaries, transcription); this module
// puts them together in their order and reads the environment.

import { accountSettings } from './config/accounts';
import { summarySettings } from './config/summaries';
import { transcriptionSettings } from './config/transcription';
import { int, list, optionalString, text, url } from './config/values';
import { youtubeSettings } from './config/youtube';
import { ConfigError } from './errors';
import * as z from './schema';

const envSchema = z.object({
  /** DynamoDB table holding users, login counters, caches and quotas. */
  TABLE_NAME: text('tubesum', 3, 255),
  AWS_REGION: text('us-east-1'),
  /** Local or test DynamoDB (the AWS SDK honours it too; we read it to log where we point). */
  AWS_ENDPOINT_URL_DYNAMODB: url(),
  /** Per-attempt deadline for one DynamoDB call; the SDK retries within MAX_ATTEMPTS. */
  DYNAMODB_TIMEOUT_MS: int(100, 20_000, 2_000),

  ...accountSettings,

  /** Largest request body accepted, in bytes (checked before parsing). */
  MAX_BODY_BYTES: int(1_024, 1_048_576, 16_384),
  /** Comma-separated origins allowed by CORS; empty means no cross-origin access. */
  CORS_ORIGINS: list,

  ...youtubeSettings,

  ...summarySettings,

  ...transcriptionSettings,

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
