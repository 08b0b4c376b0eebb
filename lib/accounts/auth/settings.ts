// Where the signing key comes from: JWT_SECRET (local), or Secrets Manager (JWT_SECRET_ARN)
// when deployed. Resolved once per function instance; there is never a default key.
import { readSecretString } from '../../aws/secrets';
import type { Config } from '../../config';
import { ConfigError } from '../../errors';
import { once } from '../../util/once';
import { assertStrongSecret, keyIdOf, type TokenSettings } from './tokens';

async function resolve(config: Config): Promise<TokenSettings> {
  let secret: Uint8Array;
  if (config.JWT_SECRET !== undefined) {
    secret = assertStrongSecret(config.JWT_SECRET, 'JWT_SECRET');
  } else if (config.JWT_SECRET_ARN !== undefined) {
    const value = await readSecretString('JWT_SECRET_ARN', config.JWT_SECRET_ARN, config);
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
 * The token settings of `config`, resolved on the first call (the secret may be read from
 * Secrets Manager) and then kept by the returned function: one per function instance.
 * The returned function throws ConfigError when the secret is missing or weak; a failed lookup
 * is tried again on the next call.
 */
export function tokenSettingsFrom(config: Config): () => Promise<TokenSettings> {
  return once(() => resolve(config));
}
