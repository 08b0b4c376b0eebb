// Creates the service's table in a local DynamoDB (the CDK stack creates it in AWS).
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_PARTITION_KEY, TABLE_TTL_ATTRIBUTE } from '../../lib/aws/table';

/**
 * Creates the table (and its TTL) unless it exists; resolves once it is ACTIVE. Asks to create
 * first (an existing table answers ResourceInUseException): one round trip fewer than looking
 * first, and the first request to a JVM that just started is the slow one.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<'created' | 'exists'> {
  let status: string | undefined;
  try {
    const created = await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: TABLE_PARTITION_KEY, AttributeType: 'S' }],
        KeySchema: [{ AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' }],
      }),
    );
    status = created.TableDescription?.TableStatus;
  } catch (error) {
    if (error instanceof ResourceInUseException) return 'exists';
    // A DynamoDB of your own may let this role use the table but not create one: if the table
    // is there, that is all the host needs; if not, the creation's error says why.
    const exists = await client.send(new DescribeTableCommand({ TableName: tableName })).then(
      () => true,
      () => false,
    );
    if (exists) return 'exists';
    throw error;
  }
  // DynamoDB Local creates tables ACTIVE at once; a real DynamoDB takes a few seconds.
  for (let i = 0; status !== 'ACTIVE' && i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    status = Table?.TableStatus;
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_TTL_ATTRIBUTE, Enabled: true },
    }),
  );
  return 'created';
}
