// The YouTube proxy URL and Data API key: from YOUTUBE_PROXY_URL / YOUTUBE_API_KEY (local), or
// from the Secrets Manager secret at YOUTUBE_SECRET_ARN (deployed: the stack stores them there
// so that neither the template nor the function's environment holds a credential).
import { z } from 'zod';
import { readSecretString } from '../aws/secrets';
import { type Config, ConfigError } from '../config';

export interface YouTubeCredentials {
  proxyUrl?: string;
  apiKey?: string;
}

const blankAsUnset = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value));

/** What the stack's secret holds; empty strings are parameters left unset. */
const SecretSchema = z.object({
  proxyUrl: blankAsUnset.pipe(z.url({ protocol: /^https?$/ }).optional()).optional(),
  apiKey: blankAsUnset.optional(),
});

/**
 * The credentials of `config`: the variables where set, else the secret's values (read on each
 * call: callers hold the client they build from them for the function instance's life).
 * @throws ConfigError naming YOUTUBE_SECRET_ARN when the secret is unreadable or malformed.
 */
export async function youTubeCredentialsFrom(config: Config): Promise<YouTubeCredentials> {
  let stored: YouTubeCredentials = {};
  if (config.YOUTUBE_SECRET_ARN !== undefined) {
    const raw = await readSecretString('YOUTUBE_SECRET_ARN', config.YOUTUBE_SECRET_ARN, config);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const parsed = SecretSchema.safeParse(json);
    if (!parsed.success) {
      // The issues name the fields only; their values are credentials and stay out of the log.
      const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)');
      throw new ConfigError(
        `the secret at YOUTUBE_SECRET_ARN must be JSON {"proxyUrl": "http(s)://...", "apiKey": "..."}; invalid: ${fields.join(', ')}`,
      );
    }
    stored = parsed.data;
  }
  const proxyUrl = config.YOUTUBE_PROXY_URL ?? stored.proxyUrl;
  const apiKey = config.YOUTUBE_API_KEY ?? stored.apiKey;
  return {
    ...(proxyUrl === undefined ? {} : { proxyUrl }),
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}
