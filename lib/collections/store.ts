// Collections as stored: one item per collection, `COLLECTION#<id>`, in its user's list (the
// jobs-by-user index, under `COLLECTIONS#<user id>`, newest first). What changes as it goes on
// (its videos, overview, problem) is one gzip-compressed value: 200 videos with their problems
// stay far below DynamoDB's item limit. Two writers meet here: the driver, which advances a
// collection under a lease (one advance at a time; one that finds the lease taken pokes it, and
// the holder looks again before letting go), and DELETE, which cancels; every write is
// conditional on the version it read.

import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, type DocumentTable, storeCall } from '../aws/dynamodb';
import type { StoredProblem } from '../problems/codec';
import { pack, unpack } from '../store/codec';
import { ownedPage, putOwned } from '../summaries/store/job-cursor';
import { bound } from '../util/bound';
import { randomId } from '../util/random-id';
import { createCollectionLeases, type Lease } from './lease';
import {
  COLLECTION_ID_PATTERN,
  type CollectionKind,
  type CollectionStatus,
  type CollectionVideoStatus,
  type Overview,
  type SkipReason,
} from './schemas';

/** What a collection was asked for, as read (the model resolved). */
export interface CollectionRequest {
  summaryLength: number;
  model: string;
  summaryLanguage?: string;
  limit: number;
}

/** One video of a collection, as stored. */
export interface StoredVideo {
  videoId: string;
  title: string;
  status: CollectionVideoStatus;
  /** Its summary job, once started. */
  jobId?: string;
  reason?: SkipReason;
  problem?: StoredProblem;
  /** A unit of the quota was taken for it when the collection was made (a new summary then). */
  prepaid?: boolean;
}

export interface Collection {
  id: string;
  userId: string;
  kind: CollectionKind;
  /** The playlist id, or the channel's UC… id. */
  sourceId: string;
  title: string;
  author: string;
  url: string;
  more: boolean;
  via: 'browse' | 'rss';
  request: CollectionRequest;
  status: CollectionStatus;
  videos: StoredVideo[];
  overview?: Overview;
  problem?: StoredProblem;
  /** The UTC day the prepaid units were taken from. */
  prepaidDay?: string;
  requestId: string;
  createdAt: number;
  updatedAt: number;
  /** Bumped by every write: each is conditional on the one it read. */
  version: number;
}

/** What changes as a collection goes on: one packed value. */
type Body = Pick<Collection, 'videos' | 'overview' | 'problem'>;

/** A collection as stored: its id in the key, what changes packed in `body`, and its lease. */
type Item = Omit<Collection, 'id' | keyof Body> & {
  pk: string;
  body: Uint8Array;
  leaseOwner?: string;
  leaseUntil?: number;
  pokes?: number;
};

const PREFIX = 'COLLECTION#';
const pkOf = (id: string) => `${PREFIX}${id}`;
const ownerKey = (userId: string) => `COLLECTIONS#${userId}`;

/** A new collection id: 128 random bits, URL-safe. */
export const newCollectionId = randomId;

function fromItem(item: Item): Collection & { lease: Lease } {
  const body = unpack<Body>(item.body) ?? { videos: [] };
  const collection: Collection & { lease: Lease } = {
    id: item.pk.slice(PREFIX.length),
    userId: item.userId,
    kind: item.kind,
    sourceId: item.sourceId,
    title: item.title,
    author: item.author,
    url: item.url,
    more: item.more,
    via: item.via,
    request: item.request,
    status: item.status,
    videos: body.videos,
    requestId: item.requestId,
    createdAt: Number(item.createdAt),
    updatedAt: Number(item.updatedAt),
    version: Number(item.version),
    lease: {
      owner: item.leaseOwner,
      until: item.leaseUntil === undefined ? undefined : Number(item.leaseUntil),
      pokes: Number(item.pokes ?? 0),
    },
  };
  if (body.overview !== undefined) collection.overview = body.overview;
  if (body.problem !== undefined) collection.problem = body.problem;
  if (item.prepaidDay !== undefined) collection.prepaidDay = item.prepaidDay;
  return collection;
}

/** A collection's key. */
const key = (id: string) => ({ pk: pkOf(id) });

/**
 * The collections of one table.
 * @throws ServiceUnavailableError (storage-unavailable) from every method when DynamoDB fails.
 */
export function createCollectionStore(db: DynamoDBDocumentClient, table: string) {
  const collections: DocumentTable = { db, table };
  return {
    ...createCollectionLeases(db, table),
    create: bound(collections, putCollection),
    get: bound(collections, getCollection),
    save: bound(collections, saveCollection),
    remove: bound(collections, removeCollection),
    list: bound(collections, listCollections),
    unfinished: bound(collections, unfinishedCollections),
  };
}

/** Stores a new collection, listed under its user (never over one of the same id). */
export async function putCollection(
  collections: DocumentTable,
  collection: Collection,
): Promise<void> {
  const { videos, overview, problem, id, ...rest } = collection;
  const item: Item = {
    ...rest,
    pk: pkOf(id),
    body: pack({ videos, overview, problem } satisfies Body),
  };
  await putOwned(collections, item, {
    owner: ownerKey(collection.userId),
    id,
    createdAt: collection.createdAt,
  });
}

/** The collection with this id, whoever owns it (callers check), with its lease. */
export async function getCollection(
  collections: DocumentTable,
  id: string,
): Promise<(Collection & { lease: Lease }) | undefined> {
  const { db, table } = collections;
  if (!COLLECTION_ID_PATTERN.test(id)) return undefined;
  const { Item } = await storeCall(() =>
    db.send(new GetCommand({ TableName: table, Key: key(id), ConsistentRead: true })),
  );
  return Item ? fromItem(Item as Item) : undefined;
}

/**
 * Writes what changed of a collection read at `collection.version` (its status and body),
 * under `owner`'s lease when given; false when another write came first (read it again).
 */
export async function saveCollection(
  collections: DocumentTable,
  collection: Collection,
  owner?: string,
): Promise<boolean> {
  const { db, table } = collections;
  const { videos, overview, problem } = collection;
  const now = Date.now();
  const written = await conditionalWrite(
    db,
    new UpdateCommand({
      TableName: table,
      Key: key(collection.id),
      UpdateExpression: 'SET #status = :status, #body = :body, #updatedAt = :now, #version = :next',
      ConditionExpression: `#version = :version${owner ? ' AND #leaseOwner = :owner' : ''}`,
      ExpressionAttributeNames: {
        '#status': 'status',
        '#body': 'body',
        '#updatedAt': 'updatedAt',
        '#version': 'version',
        ...(owner ? { '#leaseOwner': 'leaseOwner' } : {}),
      },
      ExpressionAttributeValues: {
        ':status': collection.status,
        ':body': pack({ videos, overview, problem } satisfies Body),
        ':now': now,
        ':version': collection.version,
        ':next': collection.version + 1,
        ...(owner ? { ':owner': owner } : {}),
      },
    }),
  );
  if (written) {
    collection.version += 1;
    collection.updatedAt = now;
  }
  return written;
}

/** Removes a collection from its user's list (its videos' jobs stay theirs). */
export async function removeCollection(collections: DocumentTable, id: string): Promise<void> {
  const { db, table } = collections;
  await storeCall(() => db.send(new DeleteCommand({ TableName: table, Key: key(id) })));
}

/**
 * A page of a user's collections, newest first, and the cursor of the next page.
 * @throws ValidationError for a cursor this store did not give.
 */
export async function listCollections(
  collections: DocumentTable,
  userId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ collections: Collection[]; next: string | null }> {
  const { db, table } = collections;
  const { items, next } = await ownedPage(db, table, {
    owner: ownerKey(userId),
    pkOf,
    ...page,
  });
  return { collections: items.map((item) => fromItem(item as unknown as Item)), next };
}

/**
 * Every unfinished collection of the table: the local host resumes them after a crash (a
 * Scan: deployed, SQS delivers an interrupted advance again instead).
 */
export async function unfinishedCollections(
  collections: DocumentTable,
): Promise<(Collection & { lease: Lease })[]> {
  const { db, table } = collections;
  const found: (Collection & { lease: Lease })[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const output = await storeCall(() =>
      db.send(
        new ScanCommand({
          TableName: table,
          FilterExpression: 'begins_with(pk, :prefix) AND #status IN (:queued, :running)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':prefix': PREFIX,
            ':queued': 'queued',
            ':running': 'running',
          },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      ),
    );
    for (const item of output.Items ?? []) found.push(fromItem(item as Item));
    start = output.LastEvaluatedKey;
  } while (start);
  return found;
}

export type CollectionStore = ReturnType<typeof createCollectionStore>;
