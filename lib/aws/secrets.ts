// Reads a secret string from AWS Secrets Manager (deployed stacks keep the JWT key there).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;

/**
 * The SecretString of a secret, fetched once per cold start by the caller.
 * @throws the SDK's error when the secret cannot be read, or Error when it holds no string.
 */
export async function readSecretString(secretId: string, region: string): Promise<string> {
  client ??= new SecretsManagerClient({ region });
  const result = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (result.SecretString === undefined) throw new Error(`secret ${secretId} holds no string`);
  return result.SecretString;
}
