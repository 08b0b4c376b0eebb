// Creates the service's table in a local DynamoDB (the CDK stack creates it in AWS).
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_PARTITION_KEY, TABLE_TTL_ATTRIBUTE } from '../../lib/aws/table';

/** Creates the table (and its TTL) unless it exists; resolves once it is ACTIVE. */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<'created' | 'exists'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: TABLE_PARTITION_KEY, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' }],
    }),
  );
  for (let i = 0; i < 100; i++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_TTL_ATTRIBUTE, Enabled: true },
    }),
  );
  return 'created';
}
