// What a function loads on first use rather than at its cold start: each `import()` here is a
// chunk of its own in a Lambda bundle (infra/bundling.ts), so a request that never needs YouTube
// or the operator's credentials never loads (or pays for) their code. The worker and the MCP
// function share these.
import type { Config } from './config';
import type { OperatorCredentials } from './credentials';
import type { Logger } from './logger';
import type { YouTubeClient } from './youtube/client';

/** Calls `load` once and hands every caller the same promise (retried after a failure). */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

/**
 * The operator's credentials of `config`, read once per instance when first needed.
 * The loader rejects with ConfigError when their secret is unreadable or malformed.
 */
export function credentialsOnFirstUse(config: Config): () => Promise<OperatorCredentials> {
  return once(async () => (await import('./credentials')).operatorCredentialsFrom(config));
}

/**
 * The YouTube client of `config` (with the proxy and Data API key of `credentials`), made once
 * per instance when first needed. The loader rejects as `credentials` does.
 */
export function youTubeOnFirstUse(
  config: Config,
  credentials: () => Promise<OperatorCredentials>,
  logger: Logger,
): () => Promise<YouTubeClient> {
  return once(async () =>
    (await import('./youtube/client')).youTubeClientFromConfig(config, await credentials(), {
      onWarning: (message, error) => logger.warn(message, { error: String(error) }),
    }),
  );
}
