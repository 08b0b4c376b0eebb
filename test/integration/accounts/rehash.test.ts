// After BCRYPT_COST is raised, a user's next login moves their hash to the new cost.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import { afterAll, expect, it } from 'vitest';
import { newUser, startTestHost, type TestHost } from '../../support/host';

let host: TestHost | undefined;
afterAll(() => host?.close());

async function storedCost(username: string): Promise<number> {
  if (!host) throw new Error('no host');
  const { db, config } = host;
  const claim = await db.send(
    new GetCommand({ TableName: config.TABLE_NAME, Key: { pk: `USERNAME#${username}` } }),
  );
  const user = await db.send(
    new GetCommand({ TableName: config.TABLE_NAME, Key: { pk: `USER#${claim.Item?.userId}` } }),
  );
  return bcrypt.getRounds(String(user.Item?.passwordHash));
}

it('rehashes a password made at an older cost on the next successful login, and only then', async () => {
  const user = newUser();
  host = await startTestHost({ BCRYPT_COST: '10' });
  const table = host.config.TABLE_NAME;
  expect((await host.request('POST', '/register', { json: user })).status).toBe(201);
  await host.close();

  host = await startTestHost({ BCRYPT_COST: '11', TABLE_NAME: table });
  const wrong = await host.request('POST', '/token', {
    json: { username: user.username, password: 'nope-nope-nope' },
  });
  const costAfterFailure = await storedCost(user.username);
  const right = await host.request('POST', '/token', {
    json: { username: user.username, password: user.password },
  });
  const again = await host.request('POST', '/token', {
    json: { username: user.username, password: user.password },
  });

  expect(wrong.status).toBe(401);
  expect(costAfterFailure).toBe(10);
  expect(right.status).toBe(200);
  expect(again.status).toBe(200);
  expect(await storedCost(user.username)).toBe(11);
});
