// API keys as tests need them beyond the API: the user an access token names, and a key's
// expiry moved into the past (what days of waiting would do), written where the store keeps it.
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '../../lib/accounts/api-keys/secret';
import type { TestHost } from './host';

/**
 * A new API key of the user a login token names: what /mcp takes (besides its own OAuth access
 * tokens; it refuses login tokens).
 */
export async function apiKeyOf(host: Pick<TestHost, 'request'>, token: string): Promise<string> {
  const created = await host.request('POST', '/api-keys', { json: { name: 'agent' }, token });
  if (created.status !== 201) throw new Error(`POST /api-keys answered ${created.status}`);
  return created.body.key;
}

/** The user id (`sub`) an access token names. */
export const userIdOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub;

/**
 * Makes a key expired since `at` (a second ago by default): its lookup item, which the verifier
 * reads on every request, and its entry in its owner's list, which GET /api-keys reads.
 */
export async function expireApiKey(
  db: DynamoDBDocumentClient,
  table: string,
  made: { userId: string; id: string; key: string },
  at = Date.now() - 1_000,
): Promise<void> {
  const expires = (pk: string, path: string, names: Record<string, string> = {}) =>
    db.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk },
        UpdateExpression: `SET ${path} = :at`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  await expires(`APIKEY#${hashApiKey(made.key)}`, '#expiry', { '#expiry': 'keyExpiresAt' });
  await expires(`APIKEYS#${made.userId}`, '#keys.#id.#expiry', {
    '#keys': 'keys',
    '#id': made.id,
    '#expiry': 'keyExpiresAt',
  });
}
