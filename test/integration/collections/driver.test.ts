// The collection driver against DynamoDB Local: its lease (one advance at a time, pokes that
// make the holder look again, a forced take-over after a crash) and what it does when a video
// cannot start for a passing reason. The summary service is a stand-in that records the starts:
// what a start does is the summaries' own tests' concern.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCollectionDriver } from '../../../lib/collections/driver';
import { type Collection, createCollectionStore } from '../../../lib/collections/store';
import { storageUnavailable } from '../../../lib/errors';
import { logger } from '../../../lib/logger';
import type { SummaryService } from '../../../lib/summaries/service';
import { randomId } from '../../../lib/util/random-id';
import { startTestHost, type TestHost } from '../../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const store = () => createCollectionStore(host.db, host.config.TABLE_NAME);

async function newCollection(videos: number): Promise<Collection> {
  const now = Date.now();
  const collection: Collection = {
    id: randomId(),
    userId: `user-${randomId()}`,
    kind: 'playlist',
    sourceId: 'PL0123456789',
    title: 'A course',
    author: 'A teacher',
    url: 'https://www.youtube.com/playlist?list=PL0123456789',
    more: false,
    via: 'browse',
    request: { summaryLength: 100, model: 'extractive', limit: videos },
    status: 'queued',
    videos: Array.from({ length: videos }, (_, i) => ({
      videoId: `video${String(i).padStart(6, '0')}`,
      title: `Lesson ${i + 1}`,
      status: 'queued' as const,
    })),
    requestId: 'test',
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
  await store().create(collection);
  return collection;
}

/** A summary service whose starts are recorded, and whose jobs never end. */
function summaries(failFirst?: Error) {
  const started: string[] = [];
  let fail = failFirst;
  const service: Pick<SummaryService, 'submit' | 'job'> = {
    async submit(_user, request) {
      if (fail) {
        const error = fail;
        fail = undefined;
        throw error;
      }
      started.push(request.video_url);
      const id = randomId();
      return { ready: false, charged: true, job: { id } as never };
    },
    async job(user, id) {
      return { id, userId: user.id, status: 'pending' } as never;
    },
  };
  return { service, started };
}

function driverOf(service: Pick<SummaryService, 'submit' | 'job'>) {
  return createCollectionDriver({
    collections: store(),
    summaries: service,
    quota: { release: async () => undefined },
    overview: async () => {
      throw new Error('no overview in these tests');
    },
    concurrency: 2,
    leaseMs: 60_000,
    logger,
  });
}

it('starts at most COLLECTION_CONCURRENCY videos, in order, and writes each start down', async () => {
  const collection = await newCollection(5);
  const { service, started } = summaries();

  const outcome = await driverOf(service).advance(collection.id);
  const after = await store().get(collection.id);

  expect(outcome).toBe('advanced');
  expect(started).toEqual([
    'https://www.youtube.com/watch?v=video000000',
    'https://www.youtube.com/watch?v=video000001',
  ]);
  expect(after?.status).toBe('running');
  expect(after?.videos.map((video) => video.status)).toEqual([
    'running',
    'running',
    'queued',
    'queued',
    'queued',
  ]);
  expect(after?.lease.owner).toBeUndefined();
});

it('leaves a video queued when the table fails its start, and starts it with the next advance', async () => {
  const collection = await newCollection(1);
  const { service, started } = summaries(storageUnavailable(new Error('down')));
  const driver = driverOf(service);

  const first = await driver.advance(collection.id).then(
    () => 'advanced',
    (error: { type?: string }) => error.type,
  );
  const between = await store().get(collection.id);
  const second = await driver.advance(collection.id);
  const after = await store().get(collection.id);

  expect(first).toBe('storage-unavailable');
  expect(between?.videos[0]?.status).toBe('queued');
  // The failed advance let its lease go: the next one needs no wait.
  expect(between?.lease.owner).toBeUndefined();
  expect(second).toBe('advanced');
  expect(started).toHaveLength(1);
  expect(after?.videos[0]?.status).toBe('running');
});

it('pokes a held collection instead of advancing it, so that its holder looks again', async () => {
  const collection = await newCollection(3);
  const { service, started } = summaries();
  expect(await store().acquire(collection.id, 'holder', 60_000)).toBe(true);
  const pokesBefore = (await store().get(collection.id))?.lease.pokes ?? 0;

  const outcome = await driverOf(service).advance(collection.id);
  const released = await store().release(collection.id, 'holder', pokesBefore);

  expect(outcome).toBe('busy');
  expect(started).toEqual([]);
  // The holder may not let go unseen: it was poked since it counted.
  expect(released).toBe(false);
  expect(await store().release(collection.id, 'holder', pokesBefore + 1)).toBe(true);
});

it('takes over the lease a crashed worker left when forced (a restarted local host)', async () => {
  const collection = await newCollection(2);
  const { service, started } = summaries();
  expect(await store().acquire(collection.id, 'crashed', 600_000)).toBe(true);

  const unforced = await driverOf(service).advance(collection.id);
  const forced = await driverOf(service).advance(collection.id, { force: true });

  expect(unforced).toBe('busy');
  expect(forced).toBe('advanced');
  expect(started).toHaveLength(2);
});
