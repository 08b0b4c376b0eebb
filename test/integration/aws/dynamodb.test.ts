// What DynamoDB's refusals become for a client, provoked in DynamoDB Local itself.
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeError } from '../../../lib/aws/dynamodb';
import { createWindowCounter } from '../../../lib/aws/window-counter';
import { HttpError } from '../../../lib/errors';
import { startTestHost, type TestHost } from '../../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

// DynamoDB refuses partition keys over 2,048 bytes with a ValidationException.
const longKey = `USERNAME#${'\uFDFA'.repeat(256).normalize('NFKC')}`;

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('DynamoDB accepted the request'),
    (error: unknown) => error,
  );

describe('storeError', () => {
  it('makes a key over the size limit a 422 problem, never a 500', async () => {
    const error = await refusal(
      host.db.send(new GetCommand({ TableName: host.config.TABLE_NAME, Key: { pk: longKey } })),
    );

    const mapped = storeError(error);

    expect(mapped).toBeInstanceOf(HttpError);
    expect(mapped).toMatchObject({ status: 422, type: 'value-too-large', cause: error });
  });

  it('makes a transaction cancelled for a key over the size limit a 422 too', async () => {
    const put = (pk: string) => ({ Put: { TableName: host.config.TABLE_NAME, Item: { pk } } });
    const error = await refusal(
      host.db.send(new TransactWriteCommand({ TransactItems: [put('EMAIL#a'), put(longKey)] })),
    );

    expect(storeError(error)).toMatchObject({ status: 422, type: 'value-too-large' });
  });

  it('gives a 422 from the window counter for such a key', async () => {
    const counter = createWindowCounter(host.db, host.config.TABLE_NAME);

    await expect(counter.reserve(longKey, 5, 60)).rejects.toMatchObject({ status: 422 });
  });

  it('leaves a request DynamoDB finds malformed for other reasons an error of ours (500)', async () => {
    const error = await refusal(
      host.db.send(
        new UpdateCommand({
          TableName: host.config.TABLE_NAME,
          Key: { pk: 'a' },
          UpdateExpression: 'SET state = :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      ),
    );

    expect(storeError(error)).toBe(error);
  });

  it('makes a table that does not exist a 503 server-misconfigured', async () => {
    const error = await refusal(
      host.db.send(new GetCommand({ TableName: 'no-such-table', Key: { pk: 'a' } })),
    );

    expect(storeError(error)).toMatchObject({
      status: 503,
      type: 'server-misconfigured',
    });
  });
});
