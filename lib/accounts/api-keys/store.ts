// API keys in DynamoDB: two kinds of item, written together in transactions.
//   APIKEY#<sha256 of the key>   the lookup by key (its owner, its id, when it expires, when it
//                                was last used), read on every request a key authenticates
//   APIKEYS#<user id>            the user's keys: a map of id -> { name, hash, createdAt,
//                                keyExpiresAt }, which GET /api-keys reads and whose size bounds
//                                how many a user holds
// The table has only a partition key, so a user's keys live in one item rather than under a
// sort key; a key item per hash makes the lookup one GetItem, with no index to wait for.
// A key that expires is kept API_KEY_EXPIRED_RETENTION_DAYS past its expiry, then is gone: the
// table's TTL deletes its lookup item (some time later: TTL may lag by days, which is why the
// expiry itself is checked on every request, not left to TTL), the list no longer shows it, and
// the next key made when the user is at the limit takes its entry out of the map (TTL cannot
// remove part of an item).

import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type DocumentTable, storeCall, writeTransaction } from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import { bound } from '../../util/bound';
import { tooManyApiKeys } from './errors';
import { findApiKeyByHash, keyPk, recordApiKeyUse } from './key-lookup';
import { API_KEY_EXPIRED_RETENTION_DAYS, API_KEYS_PER_USER, DAY_MS } from './limits';

/** A key as its owner's list holds it. */
export interface StoredApiKey {
  id: string;
  name: string;
  /** SHA-256 of the key, base64url: the key itself is never stored. */
  hash: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /**
   * Epoch milliseconds from which the key is refused; absent: it never expires. (Not the table's
   * TTL attribute, `expiresAt` in epoch seconds, which the lookup item carries for its removal.)
   */
  keyExpiresAt?: number;
}

/** A key as listed: what it is called, when it was made and last used (epoch milliseconds). */
export interface ListedApiKey extends Omit<StoredApiKey, 'hash'> {
  lastUsedAt?: number;
}

const listPk = (userId: string) => `APIKEYS#${userId}`;

const RETENTION_MS = API_KEY_EXPIRED_RETENTION_DAYS * DAY_MS;
/** Whether a key expired so long before `now` that it is no longer kept. */
const removedBy = (now: number, entry: { keyExpiresAt?: number | undefined }) =>
  entry.keyExpiresAt !== undefined && entry.keyExpiresAt + RETENTION_MS <= now;

/** The user's list item's map of keys (consistent: a key just made or deleted shows). */
async function keysOf(
  { db, table }: DocumentTable,
  userId: string,
): Promise<Record<string, Omit<StoredApiKey, 'id'>>> {
  const { Item } = await storeCall(() =>
    db.send(
      new GetCommand({ TableName: table, Key: { pk: listPk(userId) }, ConsistentRead: true }),
    ),
  );
  return (Item?.keys ?? {}) as Record<string, Omit<StoredApiKey, 'id'>>;
}

/**
 * One transaction: `change` to the entry `id` of the user's list, under `condition`, with
 * `lookup` (the key's lookup item, put or deleted). The codes when a condition refused it.
 */
function changeKey(
  { db, table }: DocumentTable,
  userId: string,
  id: string,
  change: { update: string; condition: string; values?: Record<string, unknown> },
  lookup: NonNullable<TransactWriteCommandInput['TransactItems']>[number],
) {
  return writeTransaction(
    db,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: table,
            Key: { pk: listPk(userId) },
            UpdateExpression: change.update,
            ConditionExpression: change.condition,
            ExpressionAttributeNames: { '#keys': 'keys', '#id': id },
            ...(change.values ? { ExpressionAttributeValues: change.values } : {}),
          },
        },
        lookup,
      ],
    }),
  );
}

/**
 * Removes the entry `id` of the user's list with its lookup item, in one transaction. False
 * when the entry was gone already (deleted by a request of theirs a moment ago).
 */
async function removeEntry(
  keys: DocumentTable,
  userId: string,
  id: string,
  hash: string,
): Promise<boolean> {
  return (
    (await changeKey(
      keys,
      userId,
      id,
      { update: 'REMOVE #keys.#id', condition: 'attribute_exists(#keys.#id)' },
      { Delete: { TableName: keys.table, Key: { pk: keyPk(hash) } } },
    )) === undefined
  );
}

/**
 * The API keys of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createApiKeyStore(db: DynamoDBDocumentClient, table: string) {
  const keys: DocumentTable = { db, table };

  return {
    add: bound(keys, addApiKey),
    list: bound(keys, listApiKeys),
    remove: bound(keys, removeApiKey),
    removeList: bound(keys, removeApiKeyList),
    findByHash: bound(keys, findApiKeyByHash),
    recordUse: bound(keys, recordApiKeyUse),
  };
}

/**
 * Stores a new key of a user, unless they already hold API_KEYS_PER_USER (checked in the
 * same transaction, so parallel requests cannot get past it either). Keys expired longer
 * than the retention before `key.createdAt` make room: they are removed, and it is tried again.
 * @throws ConflictError (too-many-api-keys) when they do.
 */
export async function addApiKey(
  keys: DocumentTable,
  userId: string,
  key: StoredApiKey,
): Promise<void> {
  const { db, table } = keys;
  // An update expression cannot make the map and set one of its entries at once: the map is
  // made first (a no-op once it exists), and the transaction then adds the entry to it.
  await storeCall(() =>
    db.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: listPk(userId) },
        UpdateExpression: 'SET #keys = if_not_exists(#keys, :none)',
        ExpressionAttributeNames: { '#keys': 'keys' },
        ExpressionAttributeValues: { ':none': {} },
      }),
    ),
  );
  const { id, ...entry } = key;
  const lookup: Record<string, unknown> = { pk: keyPk(key.hash), userId, keyId: id };
  if (key.keyExpiresAt !== undefined) {
    lookup.keyExpiresAt = key.keyExpiresAt;
    lookup[TABLE_TTL_ATTRIBUTE] = Math.ceil((key.keyExpiresAt + RETENTION_MS) / 1000);
  }
  const put = () =>
    changeKey(
      keys,
      userId,
      id,
      {
        update: 'SET #keys.#id = :entry',
        condition: 'size(#keys) < :max',
        values: { ':entry': entry, ':max': API_KEYS_PER_USER },
      },
      {
        Put: {
          TableName: table,
          Item: lookup,
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    );
  let refused = await put();
  if (refused?.[0] === 'ConditionalCheckFailed') {
    // Full: room only if some keys are past their retention (rare, so looked for only now).
    const stale = Object.entries(await keysOf(keys, userId)).filter(([, held]) =>
      removedBy(key.createdAt, held),
    );
    if (stale.length === 0) throw tooManyApiKeys();
    for (const [staleId, held] of stale) await removeEntry(keys, userId, staleId, held.hash);
    refused = await put();
    if (refused?.[0] === 'ConditionalCheckFailed') throw tooManyApiKeys();
  }
  // Two keys with one SHA-256 (never, in practice): not a client's fault.
  if (refused) throw new Error(`a new API key's hash is taken: ${refused.join(', ')}`);
}

/**
 * A user's keys, newest first, with when each was last used; without the keys that expired
 * longer than the retention before `now` (epoch milliseconds). Without `now`, every key the
 * user's list still holds, those too (what deleting the account must remove).
 */
export async function listApiKeys(
  keys: DocumentTable,
  userId: string,
  now?: number,
): Promise<ListedApiKey[]> {
  const { db, table } = keys;
  const entries = Object.entries(await keysOf(keys, userId)).filter(
    ([, entry]) => now === undefined || !removedBy(now, entry),
  );
  // At most API_KEYS_PER_USER small reads, side by side. Eventually consistent: a use a
  // moment ago may not show yet, which last_used_at's minute of resolution allows anyway.
  const used = await Promise.all(
    entries.map(([, entry]) =>
      storeCall(() =>
        db.send(
          new GetCommand({
            TableName: table,
            Key: { pk: keyPk(entry.hash) },
            ProjectionExpression: 'lastUsedAt',
          }),
        ),
      ),
    ),
  );
  return entries
    .map(([id, entry], i) => {
      const lastUsedAt = used[i]?.Item?.lastUsedAt;
      const listed: ListedApiKey = { id, name: entry.name, createdAt: Number(entry.createdAt) };
      if (typeof lastUsedAt === 'number') listed.lastUsedAt = lastUsedAt;
      if (entry.keyExpiresAt !== undefined) listed.keyExpiresAt = Number(entry.keyExpiresAt);
      return listed;
    })
    .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
}

/**
 * Deletes a user's key: its lookup item goes with its entry, in one transaction, so the key
 * stops working at once. False when the user has no key with this id.
 */
export async function removeApiKey(
  keys: DocumentTable,
  userId: string,
  id: string,
): Promise<boolean> {
  const entry = (await keysOf(keys, userId))[id];
  return entry ? removeEntry(keys, userId, id, entry.hash) : false;
}

/**
 * Deletes a user's list of keys, unconditionally (deleting an account, once every key is
 * removed: a key added meanwhile by a request let in before the deletion began is refused
 * anyway, as its user is not found).
 */
export async function removeApiKeyList(keys: DocumentTable, userId: string): Promise<void> {
  const { db, table } = keys;
  await storeCall(() =>
    db.send(new DeleteCommand({ TableName: table, Key: { pk: listPk(userId) } })),
  );
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
