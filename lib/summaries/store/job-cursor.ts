// The cursor of GET /summaries and GET /collections: where the next page of a user's jobs (or
// collections) starts (the sort key of the last item of a page), opaque to clients and checked
// when it comes back; the Query that reads such a page from the jobs-by-user index, and the Put
// that lists a new item in it.
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type DocumentTable, storeCall } from '../../aws/dynamodb';
import { JOBS_INDEX } from '../../aws/table';
import { ValidationError } from '../../errors';
import { JOB_ID_PATTERN } from '../jobs/schemas';

/** The cursor of GET /summaries: the sort key of the last job of a page, base64url. */
export function encodeCursor(lastSortKey: string): string {
  return Buffer.from(lastSortKey, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { sort: string; id: string } {
  const sort = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)#([A-Za-z0-9_-]+)$/.exec(sort);
  const id = match?.[2];
  if (!match || id === undefined || !JOB_ID_PATTERN.test(id)) {
    throw new ValidationError([
      { field: 'cursor', message: 'Use a next_cursor this service gave, or none.' },
    ]);
  }
  return { sort, id };
}

/**
 * A page of an owner's items in the jobs-by-user index (a user's jobs, or their collections),
 * newest first, and the cursor of the next page (null on the last). Read from an index, so an
 * item written a moment ago may be missing for a moment.
 * @throws ValidationError for a cursor this service did not give; storage-unavailable (503).
 */
export async function ownedPage(
  db: DynamoDBDocumentClient,
  table: string,
  query: {
    owner: string;
    pkOf: (id: string) => string;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ items: Record<string, unknown>[]; next: string | null }> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const output = await storeCall(() =>
    db.send(
      new QueryCommand({
        TableName: table,
        IndexName: JOBS_INDEX.name,
        KeyConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': JOBS_INDEX.partitionKey },
        ExpressionAttributeValues: { ':owner': query.owner },
        ScanIndexForward: false,
        Limit: query.limit,
        ...(after
          ? {
              ExclusiveStartKey: {
                pk: query.pkOf(after.id),
                [JOBS_INDEX.partitionKey]: query.owner,
                [JOBS_INDEX.sortKey]: after.sort,
              },
            }
          : {}),
      }),
    ),
  );
  const last = output.LastEvaluatedKey?.[JOBS_INDEX.sortKey];
  return { items: output.Items ?? [], next: typeof last === 'string' ? encodeCursor(last) : null };
}

/**
 * Stores a new item (never over one of the same pk), listed under `owned.owner` in the
 * jobs-by-user index at the sort key a cursor names: when it was made, then its id.
 */
export async function putOwned(
  { db, table }: DocumentTable,
  item: { pk: string },
  owned: { owner: string; id: string; createdAt: number },
): Promise<void> {
  await storeCall(() =>
    db.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...item,
          [JOBS_INDEX.partitionKey]: owned.owner,
          [JOBS_INDEX.sortKey]: `${new Date(owned.createdAt).toISOString()}#${owned.id}`,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}
