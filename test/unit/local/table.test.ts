// The local table's TTL: an UpdateTimeToLive that the SDK sent again (its first answer was slow
// on a loaded machine) finds the TTL on, and DynamoDB answers "already enabled": a success.
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, expect, it } from 'vitest';
import { ensureTable } from '../../../infra/local/table';

const dynamo = mockClient(DynamoDBClient);
afterEach(() => dynamo.reset());

const validation = (message: string) =>
  Object.assign(new Error(message), { name: 'ValidationException' });

it('takes "TimeToLive is already enabled" as the TTL being on', async () => {
  dynamo.on(CreateTableCommand).resolves({ TableDescription: { TableStatus: 'ACTIVE' } });
  dynamo
    .on(DescribeTimeToLiveCommand)
    .resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'DISABLED' } });
  dynamo.on(UpdateTimeToLiveCommand).rejects(validation('TimeToLive is already enabled'));

  await expect(ensureTable(new DynamoDBClient({}), 'table')).resolves.toBe('created');
  expect(dynamo.commandCalls(UpdateTimeToLiveCommand)).toHaveLength(1);
});

it('still fails on any other refusal of the TTL', async () => {
  dynamo.on(CreateTableCommand).resolves({ TableDescription: { TableStatus: 'ACTIVE' } });
  dynamo.on(DescribeTableCommand).resolves({ Table: { TableStatus: 'ACTIVE' } });
  dynamo
    .on(DescribeTimeToLiveCommand)
    .resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'DISABLED' } });
  dynamo.on(UpdateTimeToLiveCommand).rejects(validation('User is not authorized'));

  await expect(ensureTable(new DynamoDBClient({}), 'table')).rejects.toThrow(/not authorized/);
});
