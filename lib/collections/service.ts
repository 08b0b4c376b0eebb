// The collections service: POST /collections and the caller's collections (GET, list, DELETE).
// A collection's videos' summaries are ordinary summary jobs, which the driver starts a few at a
// time; what the service shows of a running one is read from those jobs.
import type { User } from '../accounts/users/store';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import type { Catalog } from '../models/catalog';
import type { Quota } from '../store/quota';
import type { JobQueue } from '../summaries/jobs/queue';
import type { SummaryService } from '../summaries/service';
import type { RecordStore } from '../summaries/store/records';
import { createCollection } from './create';
import { CollectionBusyError, CollectionNotFoundError } from './errors';
import { releaseUnits, wake } from './handoff';
import type { CollectionRequest as Body, CollectionView } from './schemas';
import type { Collection, CollectionStore, StoredVideo } from './store';
import { collectionView } from './view';

/** What a playlist or channel lists, in the shape of YouTube's collection listing. */
export interface Listing {
  kind: Collection['kind'];
  id: string;
  title: string;
  author: string;
  url: string;
  entries: {
    videoId: string;
    title: string;
    skipped?: { reason: NonNullable<StoredVideo['reason']>; detail: string };
  }[];
  via: 'browse' | 'rss';
  more: boolean;
}

export interface CollectionServiceDeps {
  catalog: Catalog;
  defaultModel: string;
  collections: CollectionStore;
  records: Pick<RecordStore, 'get'>;
  quota: Pick<Quota, 'reserveMany' | 'release'>;
  /** The summary jobs of its videos (read as the driver left them, settled when ended). */
  summaries: Pick<SummaryService, 'job'>;
  queue: JobQueue;
  /**
   * Checks a collection URL's form without I/O, and returns what reads it.
   * @throws ValidationError / UnprocessableError (422) for a URL that is no playlist or channel.
   */
  source: (url: string) => (options: { limit: number; signal?: AbortSignal }) => Promise<Listing>;
  logger: Logger;
}

export interface CollectionService {
  /**
   * Reads the playlist or channel, takes the new summaries' quota units and starts the collection.
   * @throws HttpError: 422 (URL, model, length, nothing to summarize), 404 (playlist or channel
   *   unavailable), 429 (quota: how many it needs, how many are left), 502-504 (YouTube), 503.
   */
  create(user: Pick<User, 'id'>, body: Body, requestId: string): Promise<CollectionView>;
  /** The user's collection. @throws CollectionNotFoundError */
  get(user: Pick<User, 'id'>, id: string): Promise<CollectionView>;
  list(
    user: Pick<User, 'id'>,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<{ items: CollectionView[]; next_cursor: string | null }>;
  /**
   * Cancels an unfinished collection (its videos not started are cancelled, their units given
   * back) or removes a finished one ('removed'). @throws CollectionNotFoundError
   */
  cancel(user: Pick<User, 'id'>, id: string): Promise<CollectionView | 'removed'>;
  /** The user's collection as stored. @throws CollectionNotFoundError */
  own(user: Pick<User, 'id'>, id: string): Promise<Collection>;
}

/** How often a write that lost to another is tried again. */
const MAX_WRITES = 10;

/** The collections service over its collaborators (all injectable for tests). */
export function createCollectionService(deps: CollectionServiceDeps): CollectionService {
  return {
    own: (user, id) => ownCollection(deps, user, id),
    create: (user, body, requestId) => createCollection(deps, user, body, requestId),
    get: async (user, id) =>
      collectionView(await liveCollection(deps, user, await ownCollection(deps, user, id))),
    list: async (user, page) => {
      const { collections: found, next } = await deps.collections.list(user.id, page);
      return { items: found.map(collectionView), next_cursor: next };
    },
    cancel: (user, id) => cancelCollection(deps, user, id),
  };
}

/** The user's collection, or the same 404 whether it does not exist or is someone else's. */
export async function ownCollection(
  { collections }: Pick<CollectionServiceDeps, 'collections'>,
  user: Pick<User, 'id'>,
  id: string,
): Promise<Collection> {
  const found = await collections.get(id);
  if (!found || found.userId !== user.id) throw new CollectionNotFoundError();
  return found;
}

/** CollectionService.cancel: an unfinished collection cancelled, a finished one removed. */
export async function cancelCollection(
  deps: CollectionServiceDeps,
  user: Pick<User, 'id'>,
  id: string,
): Promise<CollectionView | 'removed'> {
  const { collections, logger } = deps;
  for (let attempt = 0; attempt < MAX_WRITES; attempt++) {
    const collection = await ownCollection(deps, user, id);
    if (collection.status !== 'queued' && collection.status !== 'running') {
      await collections.remove(id);
      logger.info('collection removed', { collection_id: id });
      return 'removed';
    }
    const waiting = collection.videos.filter((video) => video.status === 'queued');
    collection.status = 'cancelled';
    collection.videos = collection.videos.map((video) =>
      video.status === 'queued' ? { ...video, status: 'cancelled', prepaid: false } : video,
    );
    if (await collections.save(collection)) {
      await releaseUnits(deps, collection, waiting.filter((video) => video.prepaid).length);
      logger.info('collection cancelled', { collection_id: id, not_started: waiting.length });
      return collectionView(await liveCollection(deps, user, collection));
    }
  }
  throw new CollectionBusyError();
}

/** Where its running videos stand now, read from their jobs (nothing written). */
export async function liveCollection(
  deps: CollectionServiceDeps,
  user: Pick<User, 'id'>,
  collection: Collection,
): Promise<Collection> {
  const videos = await Promise.all(
    collection.videos.map(async (video): Promise<StoredVideo> => {
      if (video.status !== 'running' || video.jobId === undefined) return video;
      try {
        const job = await deps.summaries.job(user, video.jobId);
        if (job.status === 'running') return video;
        return {
          ...video,
          status: job.status,
          ...(job.problem ? { problem: job.problem } : {}),
        };
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return video;
        throw error;
      }
    }),
  );
  const moved = videos.some((video, i) => video.status !== collection.videos[i]?.status);
  // A video settled that the driver has not seen (its word may have been lost): tell it.
  if (moved && collection.status === 'running') await wake(deps, collection, false);
  return { ...collection, videos };
}
