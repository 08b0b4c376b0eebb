// The collections of a Config: the service behind the routes (the store, the summary service it
// starts jobs with, the quota, the queue that wakes the driver) and the driver the worker runs.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { modelClientsFrom } from '../models/clients';
import { createCache } from '../store/cache';
import type { JobQueue } from '../summaries/jobs/queue';
import { catalogFromConfig } from '../summaries/offer';
import { storesFrom, summaryServiceFrom } from '../summaries/wiring';
import { keptTranscriptionsOf } from '../transcription/reuse';
import { createVideoSource } from '../transcripts/videos';
import type { Video } from '../youtube/types';
import { createCollectionAsk } from './ask';
import { createCollectionDriver } from './driver';
import { createOverviewMaker } from './overview';
import type { CollectionAskResponse } from './schemas';
import {
  type CollectionService,
  type CollectionServiceDeps,
  createCollectionService,
  ownCollection,
} from './service';
import { createCollectionStore } from './store';

/**
 * The collections service of `config`, waking the driver through `queue`.
 * @throws ConfigError for an invalid model catalog or DEFAULT_MODEL.
 */
export function collectionServiceFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  queue: JobQueue,
  source: CollectionServiceDeps['source'],
  logger: Logger,
): CollectionService {
  const stores = storesFrom(config, db);
  return createCollectionService({
    catalog: catalogFromConfig(config),
    defaultModel: config.DEFAULT_MODEL.trim().toLowerCase(),
    collections: createCollectionStore(db, config.TABLE_NAME),
    records: stores.records,
    quota: stores.quota,
    summaries: summaryServiceFrom(config, db, queue, logger),
    queue,
    source,
    logger,
  });
}

/**
 * The driver of `config`'s collections: it starts their videos' jobs through `queue`.
 * @throws ConfigError for an invalid model catalog.
 */
export function collectionDriverFrom(
  config: Config,
  db: DynamoDBDocumentClient,
  queue: JobQueue,
  logger: Logger,
) {
  const clients = modelClientsFrom(config, logger);
  return createCollectionDriver({
    collections: createCollectionStore(db, config.TABLE_NAME),
    summaries: summaryServiceFrom(config, db, queue, logger),
    quota: storesFrom(config, db).quota,
    overview: createOverviewMaker({
      catalog: catalogFromConfig(config),
      chat: (model) => clients.chat(model),
      timeoutMs: config.JOB_DEADLINE_MS,
    }),
    concurrency: config.COLLECTION_CONCURRENCY,
    leaseMs: config.JOB_LEASE_SECONDS * 1000,
    logger,
  });
}

/**
 * Questions across `config`'s collections: the collection store, the transcript cache (else
 * YouTube), the answer cache and the quota, the model clients loaded on first use.
 * @throws ConfigError for an invalid model catalog.
 */
export function collectionAskFrom(config: Config, db: DynamoDBDocumentClient, logger: Logger) {
  const clients = modelClientsFrom(config, logger);
  const table = config.TABLE_NAME;
  const collections = createCollectionStore(db, table);
  return createCollectionAsk({
    catalog: catalogFromConfig(config),
    collection: (user, id) => ownCollection({ collections }, user, id),
    quota: storesFrom(config, db).quota,
    answers: createCache<CollectionAskResponse>(db, table, config.SUMMARY_CACHE_TTL_SECONDS),
    video: createVideoSource({
      videos: createCache<Video>(db, table, config.TRANSCRIPT_CACHE_TTL_SECONDS),
      youtube: clients.youtube,
      // Questions reuse the transcriptions summaries made; an answer has no time to make one.
      captionless: keptTranscriptionsOf(config, db),
      logger,
    }),
    chat: (model) => clients.chat(model),
    logger,
  });
}
