// Creates the service's table in a local DynamoDB (the CDK stack creates it in AWS).
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { JOBS_INDEX, TABLE_PARTITION_KEY, TABLE_TTL_ATTRIBUTE } from '../../lib/aws/table';

/** The jobs-by-user index, as CreateTable and UpdateTable take it (the stack declares the same). */
const JOBS_INDEX_DEFINITION = {
  IndexName: JOBS_INDEX.name,
  KeySchema: [
    { AttributeName: JOBS_INDEX.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: JOBS_INDEX.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'ALL' as const },
};
const INDEX_ATTRIBUTES = [
  { AttributeName: JOBS_INDEX.partitionKey, AttributeType: 'S' as const },
  { AttributeName: JOBS_INDEX.sortKey, AttributeType: 'S' as const },
];

/**
 * Adds the jobs index to a table made before it existed (a `.data/` folder of an earlier
 * version), and waits until it is ACTIVE: DynamoDB Local fills a new index from every item it
 * holds, which took ~30 s for 2,000 items here (once, after the upgrade).
 */
async function ensureJobsIndex(
  client: DynamoDBClient,
  tableName: string,
  log: (line: string) => void,
): Promise<void> {
  const indexStatus = async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === JOBS_INDEX.name)
      ?.IndexStatus;
  };
  let status = await indexStatus();
  if (status === undefined) {
    log(`adding the jobs index to table ${tableName} (once, after an upgrade; may take a minute)`);
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: INDEX_ATTRIBUTES,
        GlobalSecondaryIndexUpdates: [{ Create: JOBS_INDEX_DEFINITION }],
      }),
    );
    status = await indexStatus();
  }
  // Ten minutes at most: a slower fill would be a DynamoDB Local that hangs.
  for (let i = 0; status !== 'ACTIVE' && i < 2_400; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    status = await indexStatus();
  }
  if (status !== 'ACTIVE') throw new Error(`the jobs index of ${tableName} is still ${status}`);
}

/**
 * Turns on the table's TTL unless it is on: also for a table that exists already, since a host
 * stopped between CreateTable and UpdateTimeToLive left one without it (its items would never
 * expire). "already enabled" is success: the SDK retries an UpdateTimeToLive whose answer was
 * slow (a loaded machine), and the retry finds the first one's work done.
 */
async function ensureTtl(client: DynamoDBClient, tableName: string): Promise<void> {
  const { TimeToLiveDescription } = await client.send(
    new DescribeTimeToLiveCommand({ TableName: tableName }),
  );
  const status = TimeToLiveDescription?.TimeToLiveStatus;
  if (status === 'ENABLED' || status === 'ENABLING') return;
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch (error) {
    if (error instanceof Error && /already enabled/i.test(error.message)) return;
    throw error;
  }
}

/**
 * Creates the table (and its TTL) unless it exists; resolves once it is ACTIVE. Asks to create
 * first (an existing table answers ResourceInUseException): one round trip fewer than looking
 * first, and the first request to a JVM that just started is the slow one.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  log: (line: string) => void = () => undefined,
): Promise<'created' | 'exists'> {
  let status: string | undefined;
  try {
    const created = await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: TABLE_PARTITION_KEY, AttributeType: 'S' },
          ...INDEX_ATTRIBUTES,
        ],
        KeySchema: [{ AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [JOBS_INDEX_DEFINITION],
      }),
    );
    status = created.TableDescription?.TableStatus;
  } catch (error) {
    if (error instanceof ResourceInUseException) {
      await ensureJobsIndex(client, tableName, log);
      await ensureTtl(client, tableName);
      return 'exists';
    }
    // A DynamoDB of your own may let this role use the table but not create one: if the table
    // is there, that is all the host needs; if not, the creation's error says why.
    const exists = await client.send(new DescribeTableCommand({ TableName: tableName })).then(
      () => true,
      () => false,
    );
    if (exists) {
      await ensureJobsIndex(client, tableName, log);
      return 'exists';
    }
    throw error;
  }
  // DynamoDB Local creates tables ACTIVE at once; a real DynamoDB takes a few seconds.
  for (let i = 0; status !== 'ACTIVE' && i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    status = Table?.TableStatus;
  }
  await ensureTtl(client, tableName);
  return 'created';
}
