// Collections (issue 36): a 25-video collection whose videos were all summarized before, from
// its creation to its overview, with the offline (extractive) model. The target: under
// 2 s plus the overview's model time, which the offline overview does not have. Run in this
// process on the local host (its in-process queue and the worker behind it) over DynamoDB
// Local and the fake YouTube; the playlist is a source handed to the collections service (the
// fake YouTube does not serve playlists here), so the row times what the service and the
// driver do once YouTube has listed the videos: the quota, 25 jobs served from the cache, the
// overview.
import { randomBytes } from 'node:crypto';
import type { LocalDynamo } from '../infra/local/dynamodb';
import { startLocalHost } from '../infra/local/host';
import { createDocumentClient } from '../lib/aws/dynamodb';
import type { Listing } from '../lib/collections/service';
import { createCollectionStore } from '../lib/collections/store';
import { collectionServiceFrom } from '../lib/collections/wiring';
import { loadConfig } from '../lib/config';
import { logger } from '../lib/logger';
import { summarizeBodySchema } from '../lib/summaries/schemas';
import { summaryServiceFrom } from '../lib/summaries/wiring';
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

/** `bcoll000001`, ...: 11 characters, as YouTube's ids. */
const videoId = (index: number) => `bcoll${String(index).padStart(6, '0')}`;

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
    const ids = Array.from({ length: VIDEOS }, (_, i) => videoId(i + 1));

    log(`collections: summarising ${VIDEOS} videos with the extractive model first`);
    const summaries = summaryServiceFrom(config, db, queue, logger);
    await Promise.all(
      ids.map(async (id) => {
        const body = summarizeBodySchema.parse({
          video_url: `https://www.youtube.com/watch?v=${id}`,
          summary_length: LENGTH,
          used_model: 'extractive',
          include_key_points: true,
          include_chapters: true,
        });
        const submitted = await summaries.submit(user, body, {
          waitMs: 20_000,
          requestId: `bench-seed-${id}`,
        });
        if (!submitted.ready) throw new Error(`the summary of ${id} was not made within 20 s`);
      }),
    );

    const listing: Listing = {
      kind: 'playlist',
      id: 'PLbenchcollection',
      title: 'Bench playlist',
      author: 'bench',
      url: 'https://www.youtube.com/playlist?list=PLbenchcollection',
      entries: ids.map((id, i) => ({ videoId: id, title: `Video ${i + 1}` })),
      via: 'browse',
      more: false,
    };
    const service = collectionServiceFrom(config, db, queue, () => async () => listing, logger);
    const store = createCollectionStore(db, config.TABLE_NAME);

    log(`collections: ${RUNS} collections of the ${VIDEOS} summarized videos, to their overview`);
    const times: number[] = [];
    let themes = 0;
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const made = await service.create(
        user,
        { url: listing.url, summary_length: LENGTH, used_model: 'extractive', limit: VIDEOS },
        `bench-collection-${run}`,
      );
      for (;;) {
        const found = await store.get(made.id);
        if (found?.status === 'done') {
          times.push(performance.now() - started);
          themes = found.overview?.themes.length ?? 0;
          break;
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
