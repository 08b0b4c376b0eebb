// The local host's table in DynamoDB Local: created with the jobs index, and a table made before
// the index existed (the `.data/` folder of an earlier version) gets it added, so GET /summaries
// works after an upgrade without losing the users in it.
import { randomUUID } from 'node:crypto';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LocalDynamo, startDynamoDbLocal } from '../../../infra/local/dynamodb';
import { ensureTable } from '../../../infra/local/table';
import { JOBS_INDEX, TABLE_TTL_ATTRIBUTE } from '../../../lib/aws/table';

// A DynamoDB Local of its own: filling a new index reads every item of the database, and the
// run's shared one holds every other test's tables.
let dynamo: LocalDynamo;
let client: DynamoDBClient;
beforeAll(async () => {
  dynamo = await startDynamoDbLocal({ dataDir: 'memory' });
  client = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  client?.destroy();
  await dynamo?.stop();
});

const jobsIndex = async (table: string) => {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  return Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === JOBS_INDEX.name);
};

it('creates the table with the jobs index', async () => {
  const table = `fresh-${randomUUID()}`;

  const outcome = await ensureTable(client, table);

  expect(outcome).toBe('created');
  expect(await jobsIndex(table)).toMatchObject({
    IndexStatus: 'ACTIVE',
    KeySchema: [
      { AttributeName: JOBS_INDEX.partitionKey, KeyType: 'HASH' },
      { AttributeName: JOBS_INDEX.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  });
});

it('adds the index to a table of an earlier version, keeping its items', async () => {
  const table = `earlier-${randomUUID()}`;
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  await client.send(
    new PutItemCommand({ TableName: table, Item: { pk: { S: 'USER#1' }, name: { S: 'alice' } } }),
  );

  const said: string[] = [];
  const outcome = await ensureTable(client, table, (line) => said.push(line));
  const kept = await client.send(
    new GetItemCommand({ TableName: table, Key: { pk: { S: 'USER#1' } } }),
  );

  expect(outcome).toBe('exists');
  expect(said).toEqual([expect.stringMatching(/^adding the jobs index to table earlier-/)]);
  expect((await jobsIndex(table))?.IndexStatus).toBe('ACTIVE');
  expect(kept.Item?.name?.S).toBe('alice');
  // A second start finds it as it is.
  expect(await ensureTable(client, table)).toBe('exists');
});

it('turns on the TTL of a table left without it (a host stopped right after CreateTable)', async () => {
  const table = `no-ttl-${randomUUID()}`;
  expect(await ensureTable(client, table)).toBe('created');
  // Before the fix the TTL was only set by the start that created the table: simulate the
  // start that stopped between the two calls with a table made by hand.
  const bare = `bare-${randomUUID()}`;
  await client.send(
    new CreateTableCommand({
      TableName: bare,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );

  expect(await ensureTable(client, bare)).toBe('exists');
  // Twice: a TTL that is on already is left as it is (DynamoDB refuses to enable it again).
  expect(await ensureTable(client, bare)).toBe('exists');

  for (const name of [table, bare]) {
    const { TimeToLiveDescription } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: name }),
    );
    expect(TimeToLiveDescription).toMatchObject({
      TimeToLiveStatus: 'ENABLED',
      AttributeName: TABLE_TTL_ATTRIBUTE,
    });
  }
});
