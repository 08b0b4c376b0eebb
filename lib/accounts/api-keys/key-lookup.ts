import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, type DocumentTable, storeCall } from '../../aws/dynamodb';

/** What a key's hash finds. */
export interface KeyHolder {
  userId: string;
  keyId: string;
  /** Epoch milliseconds; absent until the key is first used. */
  lastUsedAt?: number;
  /** Epoch milliseconds from which the key is refused; absent: it never expires. */
  keyExpiresAt?: number;
}

/** The lookup item's key. */
export const keyPk = (hash: string) => `APIKEY#${hash}`;

/**
 * Who holds the key with this hash, or undefined. A consistent read, never cached: a key
 * deleted a moment ago is not found, on every instance.
 */
export async function findApiKeyByHash(
  keys: DocumentTable,
  hash: string,
): Promise<KeyHolder | undefined> {
  const { db, table } = keys;
  const { Item } = await storeCall(() =>
    db.send(new GetCommand({ TableName: table, Key: { pk: keyPk(hash) }, ConsistentRead: true })),
  );
  if (typeof Item?.userId !== 'string' || typeof Item.keyId !== 'string') return undefined;
  const holder: KeyHolder = { userId: Item.userId, keyId: Item.keyId };
  if (typeof Item.lastUsedAt === 'number') holder.lastUsedAt = Item.lastUsedAt;
  if (typeof Item.keyExpiresAt === 'number') holder.keyExpiresAt = Item.keyExpiresAt;
  return holder;
}

/**
 * Records a use of a key at `now`, unless one at or after `since` is recorded already (a
 * concurrent request did it) or the key was deleted meanwhile: both are fine, not errors.
 */
export async function recordApiKeyUse(
  keys: DocumentTable,
  hash: string,
  now: number,
  since: number,
): Promise<void> {
  const { db, table } = keys;
  await conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: { pk: keyPk(hash) },
      UpdateExpression: 'SET #lastUsedAt = :now',
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(#lastUsedAt) OR #lastUsedAt < :since)',
      ExpressionAttributeNames: { '#lastUsedAt': 'lastUsedAt' },
      ExpressionAttributeValues: { ':now': now, ':since': since },
    }),
  );
}
