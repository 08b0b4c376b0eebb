// Where the signing key comes from: JWT_SECRET (local), or Secrets Manager (JWT_SECRET_ARN)
// when deployed. Resolved once per process; the service never falls back to a default key.

import { readSecretString } from '../aws/secrets';
import { type Config, ConfigError } from '../config';
import { assertStrongSecret, keyIdOf, type TokenSettings } from './tokens';

let settings: Promise<TokenSettings> | undefined;

async function resolve(config: Config): Promise<TokenSettings> {
  let secret: Uint8Array;
  if (config.JWT_SECRET !== undefined) {
    secret = assertStrongSecret(config.JWT_SECRET, 'JWT_SECRET');
  } else if (config.JWT_SECRET_ARN !== undefined) {
    const value = await readSecretString(config.JWT_SECRET_ARN, config.AWS_REGION);
    secret = assertStrongSecret(value, 'the secret at JWT_SECRET_ARN');
  } else {
    throw new ConfigError('JWT_SECRET (or JWT_SECRET_ARN) must be set to sign tokens');
  }
  return {
    secret,
    keyId: keyIdOf(secret),
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    ttlSeconds: config.TOKEN_TTL_SECONDS,
  };
}

/**
 * The token settings of this process, resolved on first use and then cached.
 * @throws ConfigError when the secret is missing or weak (a failed lookup is retried next call).
 */
export function getTokenSettings(config: Config): Promise<TokenSettings> {
  settings ??= resolve(config).catch((error: unknown) => {
    settings = undefined;
    throw error;
  });
  return settings;
}

/** Forgets the cached settings (tests and the local host after changing the config). */
export function resetTokenSettings(): void {
  settings = undefined;
}
