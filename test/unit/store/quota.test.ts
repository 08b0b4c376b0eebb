// The quota's operations against DynamoDB Local (the run's, as every store test uses): the
// boundaries of taking units (one, or many at once or none), giving one back, forgetting a
// user's counters, and which failures give a unit back.
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../../infra/local/table';
import { createDocumentClient } from '../../../lib/aws/dynamodb';
import { TABLE_TTL_ATTRIBUTE } from '../../../lib/aws/table';
import {
  BadGatewayError,
  HttpError,
  NotFoundError,
  ServiceUnavailableError,
} from '../../../lib/errors';
import {
  forget,
  givesUnitBack,
  type QuotaDeps,
  release,
  reservation,
  reserve,
  reserveMany,
} from '../../../lib/store/quota';
import { failure } from '../../support/errors';
import { testConfig } from '../../support/host';

const config = testConfig();
const db = createDocumentClient(config);
const table = config.TABLE_NAME;
beforeAll(() => ensureTable(db as never, table));
afterAll(() => db.destroy());

const quota = (limit: number): QuotaDeps => ({ db, table, limit });
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const counter = async (userId: string, day = today()) =>
  (await db.send(new GetCommand({ TableName: table, Key: { pk: `QUOTA#${userId}#${day}` } }))).Item;
const used = async (userId: string, day = today()) => (await counter(userId, day))?.used;
const secondsToMidnight = () => {
  const now = new Date();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - +now) / 1000;
};

describe('reserve', () => {
  it('takes exactly the limit, then answers 429 quota-exceeded until UTC midnight', async () => {
    const user = randomUUID();
    for (let i = 0; i < 3; i++) expect(await reserve(quota(3), user)).toEqual({ day: today() });
    const error = await failure(reserve(quota(3), user));
    expect(error.status).toBe(429);
    expect(error.type).toBe('quota-exceeded');
    const retryAfter = Number(error.headers['Retry-After']);
    expect(Math.abs(retryAfter - secondsToMidnight())).toBeLessThanOrEqual(2);
    expect(await used(user)).toBe(3);
  });

  it('keeps a counter until the end of the day after its own', async () => {
    const user = randomUUID();
    await reserve(quota(3), user);
    const endOfTomorrow = Date.parse(`${dayOffset(2)}T00:00:00Z`) / 1000;
    expect((await counter(user))?.[TABLE_TTL_ATTRIBUTE]).toBe(endOfTomorrow);
  });

  it('counts nothing with a limit of 0 (unlimited)', async () => {
    const user = randomUUID();
    for (let i = 0; i < 5; i++) await reserve(quota(0), user);
    expect(await counter(user)).toBeUndefined();
    expect(reservation(quota(0), user).update).toBeUndefined();
  });
});

describe('reserveMany', () => {
  it('takes the units that are exactly left', async () => {
    const user = randomUUID();
    await reserve(quota(5), user);
    await reserve(quota(5), user);
    await reserveMany(quota(5), user, 3);
    expect(await used(user)).toBe(5);
  });

  it('takes none when fewer are left, and says how many are', async () => {
    const user = randomUUID();
    await reserve(quota(5), user);
    await reserve(quota(5), user);
    const error = await failure(reserveMany(quota(5), user, 4));
    expect(error.status).toBe(429);
    expect(error.type).toBe('quota-exceeded');
    expect(error.message).toContain('This needs 4 new summaries and you have 3 of 5 left today');
    expect(await used(user)).toBe(2);
  });

  it('says 0 are left, never fewer, when the counter is past the limit (a lowered limit)', async () => {
    const user = randomUUID();
    await reserveMany(quota(10), user, 8);
    const error = await failure(reserveMany(quota(5), user, 1));
    expect(error.message).toContain('you have 0 of 5 left');
  });

  it('refuses more units than the limit without touching the counter', async () => {
    const user = randomUUID();
    const error = await failure(reserveMany(quota(5), user, 6));
    expect(error.message).toContain('This needs 6 new summaries and you have 5 of 5 left');
    expect(await counter(user)).toBeUndefined();
  });

  it('takes nothing for no units, or with no limit', async () => {
    const user = randomUUID();
    await reserveMany(quota(5), user, 0);
    await reserveMany(quota(0), user, 50);
    expect(await counter(user)).toBeUndefined();
  });
});

describe('release', () => {
  it('gives back a unit, so the next request goes through', async () => {
    const user = randomUUID();
    await reserve(quota(1), user);
    await release(quota(1), user, today());
    expect(await used(user)).toBe(0);
    await reserve(quota(1), user);
    expect(await used(user)).toBe(1);
  });

  it('never takes a counter below zero, nor makes one for a day that has none', async () => {
    const user = randomUUID();
    await reserve(quota(2), user);
    await release(quota(2), user, today());
    await release(quota(2), user, today());
    expect(await used(user)).toBe(0);
    await release(quota(2), user, dayOffset(-3));
    expect(await counter(user, dayOffset(-3))).toBeUndefined();
  });
});

describe('forget', () => {
  it('deletes the counters of tomorrow and the seven days back, and a later release makes none', async () => {
    const user = randomUUID();
    const other = randomUUID();
    const days = [1, 0, -1, -7].map(dayOffset);
    for (const day of days) {
      for (const id of [user, other]) {
        await db.send(
          new PutCommand({ TableName: table, Item: { pk: `QUOTA#${id}#${day}`, used: 2 } }),
        );
      }
    }
    await forget(quota(5), user);
    for (const day of days) {
      expect(await counter(user, day), day).toBeUndefined();
      expect(await used(other, day), day).toBe(2);
    }
    await release(quota(5), user, today());
    expect(await counter(user)).toBeUndefined();
  });
});

describe('givesUnitBack', () => {
  it('gives back for failures of ours or the model’s, and a transcription budget spent', () => {
    expect(givesUnitBack(new BadGatewayError('model-error', 'The model failed.'))).toBe(true);
    expect(givesUnitBack(new ServiceUnavailableError('model-throttled', 'Busy.', 5))).toBe(true);
    expect(givesUnitBack(new ServiceUnavailableError('youtube-unreachable', 'Down.', 5))).toBe(
      true,
    );
    expect(
      givesUnitBack(new HttpError(429, 'transcription-budget-exceeded', 'Too many requests')),
    ).toBe(true);
  });

  it('keeps it for YouTube’s verdicts and failures, and for refusals of the request', () => {
    expect(givesUnitBack(new BadGatewayError('youtube-bad-response', 'Bad.'))).toBe(false);
    expect(givesUnitBack(new ServiceUnavailableError('youtube-blocked', 'Blocked.', 60))).toBe(
      false,
    );
    expect(givesUnitBack(new HttpError(504, 'youtube-timeout', 'Gateway timeout'))).toBe(false);
    expect(givesUnitBack(new NotFoundError('No such video.', 'video-not-found'))).toBe(false);
    expect(givesUnitBack(new HttpError(422, 'captions-unavailable', 'Unprocessable'))).toBe(false);
  });
});
