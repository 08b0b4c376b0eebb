// The grants of one table (an app a person connected with OAuth) and their refresh tokens: made
// from a code, read, rotated, used and ended, each write one transaction or one conditional
// update, so that a refresh token presented twice or a grant ended meanwhile is always seen.
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  conditionalWrite,
  type DocumentTable,
  storeCall,
  writeTransaction,
} from '../../aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../aws/table';
import { bound } from '../../util/bound';
import {
  type Grant,
  getItem,
  grantOf,
  grantPk,
  listPk,
  newRefresh,
  type RefreshRecord,
  refreshPk,
  ttl,
} from './grant-items';

/**
 * The grants of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createGrantStore(db: DynamoDBDocumentClient, table: string) {
  const grants: DocumentTable = { db, table };

  return {
    createFromCode: bound(grants, createGrantFromCode),
    get: bound(grants, getGrant),
    findRefresh: bound(grants, findRefresh),
    rotate: bound(grants, rotateRefresh),
    end: bound(grants, endGrant),
    unlist: bound(grants, unlistGrant),
    listedIds: bound(grants, listedGrantIds),
    removeList: bound(grants, removeGrantList),
    recordUse: bound(grants, recordGrantUse),
  };
}

/**
 * Makes a grant with its first refresh token, in the one transaction that marks the code
 * `codePk` used (unless it was used or expired by `now`: then nothing is written and false is
 * returned): a code gives one grant, and a code seen used always has its grant.
 */
export async function createGrantFromCode(
  grants: DocumentTable,
  codePk: string,
  grant: Grant,
  refreshHash: string,
  now: number,
): Promise<boolean> {
  const { db, table } = grants;
  // The person's map is made first (a no-op once it exists): an update expression cannot
  // make a map and set one of its entries at once.
  await storeCall(() =>
    db.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: listPk(grant.userId) },
        UpdateExpression: 'SET #grants = if_not_exists(#grants, :none)',
        ExpressionAttributeNames: { '#grants': 'grants' },
        ExpressionAttributeValues: { ':none': {} },
      }),
    ),
  );
  const { id, ...stored } = grant;
  const refused = await writeTransaction(
    db,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: table,
            Key: { pk: codePk },
            UpdateExpression: 'SET usedAt = :now, grantId = :id',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(usedAt) AND codeExpiresAt > :now',
            ExpressionAttributeValues: { ':now': now, ':id': id },
          },
        },
        {
          Put: {
            TableName: table,
            Item: {
              pk: grantPk(id),
              ...stored,
              [TABLE_TTL_ATTRIBUTE]: ttl(grant.grantExpiresAt),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        newRefresh(grants, refreshHash, grant, grant.grantExpiresAt),
        {
          Update: {
            TableName: table,
            Key: { pk: listPk(grant.userId) },
            UpdateExpression: 'SET #grants.#id = :entry',
            ExpressionAttributeNames: { '#grants': 'grants', '#id': id },
            ExpressionAttributeValues: {
              ':entry': {
                clientId: grant.clientId,
                clientName: grant.clientName,
                createdAt: grant.createdAt,
              },
            },
          },
        },
      ],
    }),
  );
  if (refused?.[0] === 'ConditionalCheckFailed') return false;
  if (refused) throw new Error(`a new grant could not be stored: ${refused.join(', ')}`);
  return true;
}

/** A grant, unless it is gone or expired by `now` (a consistent read: ended means gone). */
export async function getGrant(
  grants: DocumentTable,
  id: string,
  now: number,
): Promise<Grant | undefined> {
  const grant = grantOf(await getItem(grants, grantPk(id)));
  return grant && grant.grantExpiresAt > now ? grant : undefined;
}

/** A refresh token by its hash, used or not. */
export async function findRefresh(
  grants: DocumentTable,
  hash: string,
): Promise<RefreshRecord | undefined> {
  const item = await getItem(grants, refreshPk(hash));
  if (typeof item?.grantId !== 'string' || typeof item.clientId !== 'string') return undefined;
  const record: RefreshRecord = { grantId: item.grantId, clientId: item.clientId };
  if (typeof item.usedAt === 'number') record.usedAt = item.usedAt;
  return record;
}

/**
 * Exchanges a refresh token for the next, in one transaction: the old one marked used (unless
 * it already was: 'reused'), the new one stored, the grant's life extended to `until` (unless
 * it ended meanwhile: 'gone').
 */
export async function rotateRefresh(
  grants: DocumentTable,
  grant: Grant,
  oldHash: string,
  newHash: string,
  now: number,
  until: number,
): Promise<'rotated' | 'reused' | 'gone'> {
  const { db, table } = grants;
  const refused = await writeTransaction(
    db,
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: table,
            Key: { pk: refreshPk(oldHash) },
            UpdateExpression: 'SET usedAt = :now',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
            ExpressionAttributeValues: { ':now': now },
          },
        },
        newRefresh(grants, newHash, grant, until),
        {
          Update: {
            TableName: table,
            Key: { pk: grantPk(grant.id) },
            UpdateExpression: 'SET grantExpiresAt = :until, lastUsedAt = :now, #ttl = :ttl',
            ConditionExpression: 'attribute_exists(pk) AND grantExpiresAt > :now',
            ExpressionAttributeNames: { '#ttl': TABLE_TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':until': until, ':now': now, ':ttl': ttl(until) },
          },
        },
      ],
    }),
  );
  if (refused === undefined) return 'rotated';
  if (refused[0] === 'ConditionalCheckFailed') return 'reused';
  if (refused[2] === 'ConditionalCheckFailed') return 'gone';
  throw new Error(`a refresh token could not be rotated: ${refused.join(', ')}`);
}

/**
 * Ends a grant: it is deleted (so its access tokens are refused from the next request, and
 * its refresh tokens find nothing) and taken off its person's list. The grant as it was, or
 * undefined when it was gone already.
 */
export async function endGrant(grants: DocumentTable, id: string): Promise<Grant | undefined> {
  const { db, table } = grants;
  const { Attributes } = await storeCall(() =>
    db.send(
      new DeleteCommand({
        TableName: table,
        Key: { pk: grantPk(id) },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  const grant = grantOf(Attributes);
  if (grant) await unlistGrant(grants, grant.userId, id);
  return grant;
}

/** Takes a grant off its person's list (gone already: fine). */
export async function unlistGrant(
  grants: DocumentTable,
  userId: string,
  id: string,
): Promise<void> {
  const { db, table } = grants;
  await conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: { pk: listPk(userId) },
      UpdateExpression: 'REMOVE #grants.#id',
      ConditionExpression: 'attribute_exists(#grants.#id)',
      ExpressionAttributeNames: { '#grants': 'grants', '#id': id },
    }),
  );
}

/** The ids on a person's list, whether or not their grants still exist. */
export async function listedGrantIds(grants: DocumentTable, userId: string): Promise<string[]> {
  const item = await getItem(grants, listPk(userId));
  return Object.keys((item?.grants ?? {}) as Record<string, unknown>);
}

/** Deletes a person's (by now empty) list. */
export async function removeGrantList(grants: DocumentTable, userId: string): Promise<void> {
  const { db, table } = grants;
  await storeCall(() =>
    db.send(new DeleteCommand({ TableName: table, Key: { pk: listPk(userId) } })),
  );
}

/**
 * Records a use of a grant at `now`, unless one at or after `since` is recorded already, or
 * the grant ended meanwhile: both are fine, not errors.
 */
export async function recordGrantUse(
  grants: DocumentTable,
  id: string,
  now: number,
  since: number,
): Promise<void> {
  const { db, table } = grants;
  await conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: { pk: grantPk(id) },
      UpdateExpression: 'SET lastUsedAt = :now',
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :since)',
      ExpressionAttributeValues: { ':now': now, ':since': since },
    }),
  );
}

export type GrantStore = ReturnType<typeof createGrantStore>;
