// Collections (issue 36): a 25-video collection whose videos were all summarized before, from
// its creation to its overview, with the offline (extractive) model. The target: under
// 2 s plus the overview's model time, which the offline overview does not have. Run in this
// process on the local host (its in-process queue and the worker behind it) over DynamoDB
// Local and the fake YouTube, which serves the recorded 150-video playlist (its first 25
// read): the row times reading the playlist, the quota, 25 jobs served from the cache and the
// overview. A first collection of the same videos, not timed, makes their summaries.
import { randomBytes } from 'node:crypto';
import type { LocalDynamo } from '../infra/local/dynamodb';
import { startLocalHost } from '../infra/local/host';
import { createDocumentClient } from '../lib/aws/dynamodb';
import { collectionSourceFrom } from '../lib/collections/source';
import { createCollectionStore } from '../lib/collections/store';
import { collectionServiceFrom } from '../lib/collections/wiring';
import { loadConfig } from '../lib/config';
import { logger } from '../lib/logger';
import { FAKE_PLAYLISTS } from '../test/support/fake-browse-scenarios';
import { startFakeYouTube } from '../test/support/fake-youtube';
import { median, type Row, row } from './measure';

const VIDEOS = 25;
const RUNS = 5;
/** The target, in ms, for the offline model (no model time to add). */
const TARGET_MS = 2_000;
/** How often the collection is looked at while it runs. */
const POLL_MS = 10;
/** A run that takes longer than this has hung. */
const GIVE_UP_MS = 60_000;
const LENGTH = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function collectionBenchmarks(
  dynamo: LocalDynamo,
  log: (line: string) => void,
): Promise<Row[]> {
  const youtube = await startFakeYouTube();
  // Every video id answers as a normal video does.
  youtube.useScenario('normal');
  const host = await startLocalHost(
    loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      TABLE_NAME: 'bench-collections',
      JWT_SECRET: randomBytes(48).toString('base64url'),
      YOUTUBE_BASE_URL: youtube.baseUrl,
      YOUTUBE_API_BASE_URL: youtube.baseUrl,
      DEFAULT_MODEL: 'extractive',
      // The seeded summaries take 25 units; each collection of them then needs none.
      SUMMARY_DAILY_QUOTA: String(VIDEOS * 2),
      LOCAL_DATA_DIR: 'memory',
      PORT: '0',
    }),
    { log: () => undefined },
  );
  try {
    await host.database;
    const { config, queue } = host;
    const db = createDocumentClient(config);
    const user = { id: `bench-collections-${randomBytes(6).toString('hex')}` };

    const service = collectionServiceFrom(config, db, queue, collectionSourceFrom(config), logger);
    const store = createCollectionStore(db, config.TABLE_NAME);
    const url = `https://www.youtube.com/playlist?list=${FAKE_PLAYLISTS.top150}`;
    const request = { url, summary_length: LENGTH, used_model: 'extractive', limit: VIDEOS };

    /** Makes a collection of the playlist and waits for its overview: the time it took. */
    async function collect(requestId: string): Promise<{ ms: number; themes: number }> {
      const started = performance.now();
      const made = await service.create(user, request, requestId);
      for (;;) {
        const found = await store.get(made.id);
        if (found?.status === 'done') {
          return { ms: performance.now() - started, themes: found.overview?.themes.length ?? 0 };
        }
        if (found === undefined || found.status === 'failed' || found.status === 'cancelled') {
          throw new Error(`the collection ended ${found?.status ?? 'missing'}`);
        }
        if (performance.now() - started > GIVE_UP_MS) {
          throw new Error(`the collection was still ${found.status} after ${GIVE_UP_MS} ms`);
        }
        await sleep(POLL_MS);
      }
    }

    log(`collections: summarising the playlist's first ${VIDEOS} videos (extractive) first`);
    await collect('bench-collection-seed');

    log(`collections: ${RUNS} collections of the ${VIDEOS} summarized videos, to their overview`);
    const times: number[] = [];
    let themes = 0;
    for (let run = 0; run < RUNS; run++) {
      const done = await collect(`bench-collection-${run}`);
      times.push(done.ms);
      themes = done.themes;
    }
    db.destroy();
    return [
      row(
        'collections',
        `${VIDEOS} cached summaries to an offline overview (${themes} themes), median of ${RUNS}`,
        median(times),
        'ms',
        { below: TARGET_MS },
      ),
      row('collections', `the same, slowest of ${RUNS}`, Math.max(...times), 'ms'),
    ];
  } finally {
    await host.close();
    await youtube.close();
  }
}
