// The lease of a collection: one advance of its driver at a time. An advance that
// finds it taken pokes it (a counter), and the holder lets go only when no poke came since it
// last read the collection, else it looks again: a video settled while another advance held the
// collection is never left unseen. A holder that dies lets go when the lease lapses.

import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, type DocumentTable } from '../aws/dynamodb';
import { bound } from '../util/bound';

/** Who advances a collection, until when, and how often others asked meanwhile. */
export interface Lease {
  owner?: string | undefined;
  until?: number | undefined;
  pokes: number;
}

const pkOf = (id: string) => `COLLECTION#${id}`;

/** A collection's key. */
const key = (id: string) => ({ pk: pkOf(id) });

/**
 * The lease operations on the collections of one table.
 * @throws ServiceUnavailableError (storage-unavailable) when DynamoDB fails.
 */
export function createCollectionLeases(db: DynamoDBDocumentClient, table: string) {
  const collections: DocumentTable = { db, table };
  return {
    acquire: bound(collections, acquireLease),
    renew: bound(collections, renewLease),
    release: bound(collections, releaseLease),
  };
}

/**
 * Takes the lease of a collection for `ms` (even from a live holder when `force`: a resumed
 * crash, when no other process can hold it); false when another holds it, which is then poked
 * so that it looks again before letting go.
 */
export async function acquireLease(
  collections: DocumentTable,
  id: string,
  owner: string,
  ms: number,
  force = false,
): Promise<boolean> {
  const { db, table } = collections;
  const now = Date.now();
  const taken = await conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: key(id),
      UpdateExpression: 'SET #leaseOwner = :owner, #leaseUntil = :until',
      ConditionExpression: force
        ? 'attribute_exists(pk)'
        : 'attribute_exists(pk) AND (attribute_not_exists(#leaseUntil) OR #leaseUntil < :now)',
      ExpressionAttributeNames: { '#leaseOwner': 'leaseOwner', '#leaseUntil': 'leaseUntil' },
      ExpressionAttributeValues: {
        ':owner': owner,
        ':until': now + ms,
        ...(force ? {} : { ':now': now }),
      },
    }),
  );
  if (!taken) {
    await conditionalWrite(
      db,
      new UpdateCommand({
        TableName: table,
        Key: key(id),
        UpdateExpression: 'ADD #pokes :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#pokes': 'pokes' },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  }
  return taken;
}

/** Keeps `owner`'s lease `ms` longer; false when it is no longer theirs. */
export async function renewLease(
  collections: DocumentTable,
  id: string,
  owner: string,
  ms: number,
): Promise<boolean> {
  const { db, table } = collections;
  return conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: key(id),
      UpdateExpression: 'SET #leaseUntil = :until',
      ConditionExpression: '#leaseOwner = :owner',
      ExpressionAttributeNames: { '#leaseOwner': 'leaseOwner', '#leaseUntil': 'leaseUntil' },
      ExpressionAttributeValues: { ':owner': owner, ':until': Date.now() + ms },
    }),
  );
}

/**
 * Lets go of `owner`'s lease, unless it was poked since `pokes` were counted: false then (or
 * when the lease is no longer theirs), and the caller looks again. Without `pokes`, lets go
 * whatever pokes came (an advance that failed: the message comes again).
 */
export async function releaseLease(
  collections: DocumentTable,
  id: string,
  owner: string,
  pokes?: number,
): Promise<boolean> {
  const { db, table } = collections;
  const poked = pokes === undefined ? '' : ' AND (attribute_not_exists(#pokes) OR #pokes = :pokes)';
  return conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: key(id),
      UpdateExpression: 'REMOVE #leaseOwner, #leaseUntil',
      ConditionExpression: `#leaseOwner = :owner${poked}`,
      ExpressionAttributeNames: {
        '#leaseOwner': 'leaseOwner',
        '#leaseUntil': 'leaseUntil',
        ...(pokes === undefined ? {} : { '#pokes': 'pokes' }),
      },
      ExpressionAttributeValues: {
        ':owner': owner,
        ...(pokes === undefined ? {} : { ':pokes': pokes }),
      },
    }),
  );
}
