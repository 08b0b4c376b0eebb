// The operator's credentials for third parties: the YouTube proxy URL and Data API key, and the
// OpenAI-compatible server's API key. Locally they are variables (YOUTUBE_PROXY_URL,
// YOUTUBE_API_KEY, OPENAI_API_KEY); deployed, the stack keeps them in one Secrets Manager secret
// (CREDENTIALS_SECRET_ARN), so that neither the template nor a function's environment holds one.

import type { Config } from '../config';
import { ConfigError } from '../errors';
import * as z from '../schema';
import { readSecretString } from './secrets';

export interface OperatorCredentials {
  youtubeProxyUrl?: string;
  youtubeApiKey?: string;
  openaiApiKey?: string;
  /** The OpenAI-compatible transcription server's key (TRANSCRIPTION_API_KEY). */
  transcriptionApiKey?: string;
}

const blankAsUnset = () =>
  z.pipe(
    z.string().check(z.trim()),
    z.transform((value) => (value === '' ? undefined : value)),
  );

/** What the stack's secret holds; empty strings are parameters left unset. */
const SecretSchema = z.object({
  youtubeProxyUrl: z.optional(z.pipe(blankAsUnset(), z.optional(z.url({ protocol: /^https?$/ })))),
  youtubeApiKey: z.optional(blankAsUnset()),
  openaiApiKey: z.optional(blankAsUnset()),
  transcriptionApiKey: z.optional(blankAsUnset()),
});

/** The secret's values, or none when CREDENTIALS_SECRET_ARN is unset. */
async function stored(config: Config): Promise<OperatorCredentials> {
  if (config.CREDENTIALS_SECRET_ARN === undefined) return {};
  const raw = await readSecretString(
    'CREDENTIALS_SECRET_ARN',
    config.CREDENTIALS_SECRET_ARN,
    config,
  );
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  const parsed = SecretSchema.safeParse(json);
  if (!parsed.success) {
    // zod's report names the fields and the rules, never the values (they are credentials).
    throw new ConfigError(
      `the secret at CREDENTIALS_SECRET_ARN must be JSON {"youtubeProxyUrl": "http(s)://...", "youtubeApiKey": "...", "openaiApiKey": "...", "transcriptionApiKey": "..."}:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/**
 * The credentials of `config`: each variable where set, else the secret's value. Reads the
 * secret on every call: call it once per function instance.
 * @throws ConfigError naming CREDENTIALS_SECRET_ARN when the secret is unreadable or malformed.
 */
export async function operatorCredentialsFrom(config: Config): Promise<OperatorCredentials> {
  const secret = await stored(config);
  const chosen: OperatorCredentials = {
    youtubeProxyUrl: config.YOUTUBE_PROXY_URL ?? secret.youtubeProxyUrl,
    youtubeApiKey: config.YOUTUBE_API_KEY ?? secret.youtubeApiKey,
    openaiApiKey: config.OPENAI_API_KEY ?? secret.openaiApiKey,
    transcriptionApiKey: config.TRANSCRIPTION_API_KEY ?? secret.transcriptionApiKey,
  };
  return Object.fromEntries(
    Object.entries(chosen).filter(([, value]) => value !== undefined),
  ) as OperatorCredentials;
}
