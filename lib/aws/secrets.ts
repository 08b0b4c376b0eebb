// Reads secret strings from AWS Secrets Manager (deployed stacks keep the JWT key and the
// YouTube credentials there, never in the environment or the template).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from '../config';
import { ConfigError } from '../errors';

type SecretsConfig = Pick<Config, 'AWS_REGION' | 'AWS_ENDPOINT_URL_SECRETS_MANAGER'>;

/**
 * The SecretString of the secret a variable names; callers read each secret once per cold
 * start, so the client lives only for the call.
 * @throws ConfigError naming the variable when the secret cannot be read (missing, no access,
 *   Secrets Manager unreachable) or holds no string: the operator has to look, and the request
 *   gets a 503 server-misconfigured instead of a 500.
 */
export async function readSecretString(
  variable: string,
  secretId: string,
  config: SecretsConfig,
): Promise<string> {
  const client = new SecretsManagerClient({
    region: config.AWS_REGION,
    ...(config.AWS_ENDPOINT_URL_SECRETS_MANAGER === undefined
      ? {}
      : { endpoint: config.AWS_ENDPOINT_URL_SECRETS_MANAGER }),
  });
  let value: string | undefined;
  try {
    const result = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    value = result.SecretString;
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    throw new ConfigError(`cannot read the secret at ${variable} (${name})`, { cause: error });
  } finally {
    client.destroy();
  }
  if (value === undefined) throw new ConfigError(`the secret at ${variable} holds no string`);
  return value;
}
