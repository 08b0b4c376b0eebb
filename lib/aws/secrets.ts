// Reads a secret string from AWS Secrets Manager (deployed stacks keep the JWT key there).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * The SecretString of a secret; callers read each secret once per cold start, so the client
 * lives only for the call.
 * @throws the SDK's error when the secret cannot be read, or Error when it holds no string.
 */
export async function readSecretString(secretId: string, region: string): Promise<string> {
  const client = new SecretsManagerClient({ region });
  try {
    const result = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (result.SecretString === undefined) throw new Error(`secret ${secretId} holds no string`);
    return result.SecretString;
  } finally {
    client.destroy();
  }
}
