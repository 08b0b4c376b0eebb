// The parts of the user store that DynamoDB Local cannot provoke (throttled transactions), and
// what it never sends to DynamoDB.
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createUserStore } from '../../../../lib/accounts/users/store';
import { ServiceUnavailableError, ValidationError } from '../../../../lib/errors';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(db);
afterEach(() => mock.reset());

const throttled = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'ThrottlingError' }, { Code: 'None' }, { Code: 'None' }],
  });

// One character that NFKC turns into eighteen.
const GROWS = '\uFDFA';

const newUser = { username: 'alice', email: 'alice@example.com', passwordHash: '$2b$10$x' };

describe('createUserStore().create', () => {
  it('succeeds with exactly one write when DynamoDB throttles twice and then recovers', async () => {
    mock.on(TransactWriteCommand).rejectsOnce(throttled()).rejectsOnce(throttled()).resolves({});

    const user = await createUserStore(db, 'table').create(newUser);

    expect(user.username).toBe('alice');
    const calls = mock.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(3);
    // Every attempt writes the same record: a retry never creates a second user.
    const ids = calls.map((call) => call.args[0].input.TransactItems?.[2]?.Put?.Item?.id);
    expect(new Set(ids).size).toBe(1);
  });

  it('answers 503 when DynamoDB keeps throttling', async () => {
    mock.on(TransactWriteCommand).rejects(throttled());

    await expect(createUserStore(db, 'table').create(newUser)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });

  it.each([
    ['username', { ...newUser, username: GROWS.repeat(2) }],
    ['email', { ...newUser, email: `${GROWS.repeat(14)}@example.com` }],
  ])(
    'refuses a %s longer than a stored key once normalised, without writing',
    async (field, user) => {
      const refusal = await createUserStore(db, 'table')
        .create(user)
        .catch((error: unknown) => error);

      expect(refusal).toBeInstanceOf(ValidationError);
      expect(refusal).toMatchObject({
        extensions: { errors: [expect.objectContaining({ field })] },
      });
      expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    },
  );
});

describe('createUserStore().findByLogin', () => {
  it.each([
    ['username', GROWS.repeat(2)],
    ['email', `${GROWS.repeat(14)}@example.com`],
  ])(
    'finds nobody for a %s longer than any stored key once normalised, without asking',
    async (_kind, identifier) => {
      expect(await createUserStore(db, 'table').findByLogin(identifier)).toBeUndefined();
      expect(mock.commandCalls(GetCommand)).toHaveLength(0);
    },
  );
});
