// The parts of the API key store that DynamoDB Local cannot provoke (cancelled and throttled
// transactions, a failing use record), and what it sends (an expiry and its TTL, what makes room).
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_EXPIRED_RETENTION_DAYS, DAY_MS } from '../../../../lib/accounts/api-keys/limits';
import { createApiKeyStore } from '../../../../lib/accounts/api-keys/store';
import { ConflictError, ServiceUnavailableError } from '../../../../lib/errors';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(db);
afterEach(() => mock.reset());

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const throttled = () => Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
const key = { id: 'A'.repeat(22), name: 'laptop', hash: 'h'.repeat(43), createdAt: 1 };

describe('createApiKeyStore().add', () => {
  it('bounds the user’s keys in the transaction that adds the key and its lookup item', async () => {
    mock.on(UpdateCommand).resolves({}).on(TransactWriteCommand).resolves({});

    await createApiKeyStore(db, 'table').add('user-1', key);

    const [write] = mock.commandCalls(TransactWriteCommand);
    const [list, lookup] = write?.args[0].input.TransactItems ?? [];
    expect(list?.Update).toMatchObject({
      Key: { pk: 'APIKEYS#user-1' },
      ConditionExpression: 'size(#keys) < :max',
      ExpressionAttributeValues: { ':max': 10 },
    });
    expect(lookup?.Put).toMatchObject({
      Item: { pk: `APIKEY#${key.hash}`, userId: 'user-1', keyId: key.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('answers 409 too-many-api-keys when the bound refuses the key', async () => {
    mock.on(UpdateCommand).resolves({});
    mock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    mock.on(GetCommand).resolves({ Item: { keys: {} } });

    const refusal = createApiKeyStore(db, 'table').add('user-1', key);

    await expect(refusal).rejects.toBeInstanceOf(ConflictError);
    await expect(refusal).rejects.toMatchObject({ type: 'too-many-api-keys' });
  });

  it('stores a key’s expiry in its entry and lookup item, whose TTL is the retention after it', async () => {
    mock.on(UpdateCommand).resolves({}).on(TransactWriteCommand).resolves({});
    const keyExpiresAt = 90 * DAY_MS + 1;

    await createApiKeyStore(db, 'table').add('user-1', { ...key, keyExpiresAt });

    const [list, lookup] =
      mock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(list?.Update?.ExpressionAttributeValues?.[':entry']).toMatchObject({ keyExpiresAt });
    expect(lookup?.Put?.Item).toMatchObject({
      keyExpiresAt,
      expiresAt: (120 * DAY_MS) / 1000 + 1,
    });
  });

  it('gives a key without an expiry no TTL', async () => {
    mock.on(UpdateCommand).resolves({}).on(TransactWriteCommand).resolves({});

    await createApiKeyStore(db, 'table').add('user-1', key);

    const [, lookup] =
      mock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(Object.keys(lookup?.Put?.Item ?? {}).sort()).toEqual(['keyId', 'pk', 'userId']);
  });

  it('makes room, when full, by removing the keys expired longer than the retention, and only those', async () => {
    const now = 1_000 * DAY_MS;
    const retention = API_KEY_EXPIRED_RETENTION_DAYS * DAY_MS;
    mock.on(UpdateCommand).resolves({});
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('ConditionalCheckFailed', 'None'))
      .resolves({});
    mock.on(GetCommand).resolves({
      Item: {
        keys: {
          gone: { name: 'gone', hash: 'g', createdAt: 1, keyExpiresAt: now - retention },
          kept: { name: 'kept', hash: 'k', createdAt: 1, keyExpiresAt: now - retention + 1 },
          never: { name: 'never', hash: 'n', createdAt: 1 },
        },
      },
    });

    await createApiKeyStore(db, 'table').add('user-1', { ...key, createdAt: now });

    const writes = mock.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
    expect(writes).toHaveLength(3);
    expect(writes[1]?.TransactItems?.[0]?.Update).toMatchObject({
      UpdateExpression: 'REMOVE #keys.#id',
      ExpressionAttributeNames: { '#id': 'gone' },
    });
    expect(writes[1]?.TransactItems?.[1]?.Delete?.Key).toEqual({ pk: 'APIKEY#g' });
    expect(writes[2]?.TransactItems?.[1]?.Put?.Item).toMatchObject({ keyId: key.id });
  });

  it('answers 409 when full of keys still within their retention, removing none', async () => {
    mock.on(UpdateCommand).resolves({});
    mock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    mock.on(GetCommand).resolves({
      Item: { keys: { expired: { name: 'e', hash: 'e', createdAt: 0, keyExpiresAt: 0 } } },
    });

    const refusal = createApiKeyStore(db, 'table').add('user-1', { ...key, createdAt: DAY_MS });

    await expect(refusal).rejects.toMatchObject({ type: 'too-many-api-keys' });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('adds the key once when a concurrent transaction cancels it twice', async () => {
    mock.on(UpdateCommand).resolves({});
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .resolves({});

    await createApiKeyStore(db, 'table').add('user-1', key);

    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('answers 503 when the transaction stays cancelled', async () => {
    mock.on(UpdateCommand).resolves({});
    mock.on(TransactWriteCommand).rejects(cancelled('ThrottlingError', 'None'));

    await expect(createApiKeyStore(db, 'table').add('user-1', key)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });
});

describe('createApiKeyStore().list', () => {
  it('lists each key’s expiry, and not the keys expired longer than the retention', async () => {
    const now = 1_000 * DAY_MS;
    const retention = API_KEY_EXPIRED_RETENTION_DAYS * DAY_MS;
    mock.on(GetCommand, { Key: { pk: 'APIKEYS#user-1' } }).resolves({
      Item: {
        keys: {
          gone: { name: 'gone', hash: 'g', createdAt: 3, keyExpiresAt: now - retention },
          expired: { name: 'expired', hash: 'e', createdAt: 2, keyExpiresAt: now - 1 },
          never: { name: 'never', hash: 'n', createdAt: 1 },
        },
      },
    });
    mock.on(GetCommand, { Key: { pk: 'APIKEY#e' } }).resolves({ Item: { lastUsedAt: 5 } });

    const listed = await createApiKeyStore(db, 'table').list('user-1', now);

    expect(listed).toEqual([
      { id: 'expired', name: 'expired', createdAt: 2, keyExpiresAt: now - 1, lastUsedAt: 5 },
      { id: 'never', name: 'never', createdAt: 1 },
    ]);
  });
});

describe('createApiKeyStore().remove', () => {
  it('deletes the lookup item with the entry, and says false when a concurrent delete won', async () => {
    mock.on(GetCommand).resolves({ Item: { keys: { [key.id]: key } } });
    mock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));

    const removed = await createApiKeyStore(db, 'table').remove('user-1', key.id);

    expect(removed).toBe(false);
    const items = mock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[1]?.Delete?.Key).toEqual({ pk: `APIKEY#${key.hash}` });
  });

  it('writes nothing for a key the user does not have', async () => {
    mock.on(GetCommand).resolves({ Item: { keys: {} } });

    expect(await createApiKeyStore(db, 'table').remove('user-1', key.id)).toBe(false);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('createApiKeyStore().findByHash and recordUse', () => {
  it('finds a key’s holder with its expiry and last use', async () => {
    mock.on(GetCommand).resolves({
      Item: { userId: 'user-1', keyId: key.id, lastUsedAt: 5, keyExpiresAt: 7, expiresAt: 9 },
    });

    expect(await createApiKeyStore(db, 'table').findByHash(key.hash)).toEqual({
      userId: 'user-1',
      keyId: key.id,
      lastUsedAt: 5,
      keyExpiresAt: 7,
    });
  });

  it('reads the lookup item consistently, so a deleted key is not found a moment later', async () => {
    mock.on(GetCommand).resolves({});

    expect(await createApiKeyStore(db, 'table').findByHash(key.hash)).toBeUndefined();
    expect(mock.commandCalls(GetCommand)[0]?.args[0].input).toMatchObject({
      Key: { pk: `APIKEY#${key.hash}` },
      ConsistentRead: true,
    });
  });

  it('takes a refused use record (a newer one, or a deleted key) as done', async () => {
    mock
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));

    await expect(
      createApiKeyStore(db, 'table').recordUse(key.hash, 2_000, 1_000),
    ).resolves.toBeUndefined();
  });

  it('reports a store failure as 503 (the verifier logs it and lets the key in)', async () => {
    mock.on(UpdateCommand).rejects(throttled());

    await expect(
      createApiKeyStore(db, 'table').recordUse(key.hash, 2_000, 1_000),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
