// The collections service: POST /collections and the caller's collections (GET, list, DELETE).
// A request is checked whole before any I/O (the URL's form, the model, the length), then the
// playlist or channel is read, the videos whose summaries are new are counted and their quota
// units taken at once (a 429 before anything starts when too few are left), and the collection
// is stored and handed to the driver (driver.ts) through the job queue. Its videos' summaries are
// ordinary summary jobs, which the driver starts a few at a time.
import type { User } from '../accounts/users/store';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { type Catalog, resolveModel } from '../models/catalog';
import { storeProblem } from '../problems/codec';
import type { Quota } from '../store/quota';
import { QueueUnavailableError } from '../summaries/jobs/errors';
import type { JobQueue } from '../summaries/jobs/queue';
import { plannerFor, SummaryLengthError } from '../summaries/llm/plan';
import type { SummaryService } from '../summaries/service';
import { type RecordStore, reusable, summaryKey, type Work } from '../summaries/store/records';
import { withoutHidden } from '../util/text';
import { CollectionBusyError, CollectionEmptyError, CollectionNotFoundError } from './errors';
import type { CollectionRequest as Body, CollectionView } from './schemas';
import {
  type Collection,
  type CollectionRequest,
  type CollectionStore,
  newCollectionId,
  type StoredVideo,
} from './store';
import { collectionView, isSettled } from './view';

/** What a playlist or channel lists: lib/youtube/collections' CollectionListing. */
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

/**
 * A name YouTube gives (a title, a channel): third parties' text, shown on the page and in
 * Markdown. Without hidden characters, and as long as YouTube lets a name be, with room to spare.
 */
const NAME_CHARS = 300;
const cleanName = (name: string) => withoutHidden(name).trim().slice(0, NAME_CHARS);

/** Summary records looked up at once when counting a collection's new summaries. */
const LOOKUPS_AT_ONCE = 16;

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

/** CollectionService.create: the listing read, the new summaries' units taken, the driver woken. */
export async function createCollection(
  deps: CollectionServiceDeps,
  user: Pick<User, 'id'>,
  body: Body,
  requestId: string,
): Promise<CollectionView> {
  const { read, model, request } = checkedRequest(deps, body);
  const listing = await read({ limit: body.limit });
  const playable = listing.entries.filter((entry) => entry.skipped === undefined);
  if (playable.length === 0) throw new CollectionEmptyError(listing.entries.length);
  const works = playable.map(
    (entry): Work => ({
      videoId: entry.videoId,
      model: model.name,
      length: body.summary_length,
      ...(body.summary_language === undefined ? {} : { summaryLanguage: body.summary_language }),
    }),
  );
  const fresh = await newOnes(deps, works);
  const units = fresh.filter(Boolean).length;
  const { day } = await deps.quota.reserveMany(user.id, units);
  const now = Date.now();
  const collection: Collection = {
    id: newCollectionId(),
    userId: user.id,
    kind: listing.kind,
    sourceId: listing.id,
    title: cleanName(listing.title),
    author: cleanName(listing.author),
    url: listing.url,
    more: listing.more,
    via: listing.via,
    request,
    status: 'queued',
    videos: videosOf(listing.entries, fresh),
    ...(units > 0 ? { prepaidDay: day } : {}),
    requestId,
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
  await storeAndWake(deps, collection, units);
  deps.logger.info('collection queued', {
    collection_id: collection.id,
    kind: listing.kind,
    source_id: listing.id,
    videos: collection.videos.length,
    new_summaries: units,
    via: listing.via,
  });
  return collectionView(collection);
}

/**
 * The lister of a request's URL, its model and what is stored of it: checked before any I/O, so
 * a bad URL, model or length costs no request anywhere.
 * @throws HttpError 422 (URL, model, a length the model cannot make).
 */
function checkedRequest(deps: CollectionServiceDeps, body: Body) {
  const read = deps.source(body.url);
  const model = resolveModel(deps.catalog, body.used_model ?? deps.defaultModel);
  if (model.kind !== 'extractive') {
    const longest = plannerFor(model).longestSummary();
    if (body.summary_length > longest) {
      throw new SummaryLengthError(model.name, body.summary_length, longest);
    }
  }
  const request: CollectionRequest = {
    summaryLength: body.summary_length,
    model: model.name,
    limit: body.limit,
    ...(body.summary_language === undefined ? {} : { summaryLanguage: body.summary_language }),
  };
  return { read, model, request };
}

/** The listing's videos as stored: skipped ones with why, the playable ones queued (`fresh`:
 * whether each playable one is a new summary, prepaid). */
function videosOf(
  entries: Awaited<ReturnType<ReturnType<CollectionServiceDeps['source']>>>['entries'],
  fresh: readonly boolean[],
): StoredVideo[] {
  let next = 0;
  return entries.map((entry): StoredVideo => {
    if (entry.skipped) {
      return {
        videoId: entry.videoId,
        title: cleanName(entry.title),
        status: 'skipped',
        reason: entry.skipped.reason,
      };
    }
    const prepaid = fresh[next++] === true;
    return {
      videoId: entry.videoId,
      title: cleanName(entry.title),
      status: 'queued',
      ...(prepaid ? { prepaid } : {}),
    };
  });
}

/**
 * Stores a new collection and wakes its driver; either failing gives its `units` back (and a
 * driver that cannot be woken fails the collection).
 */
async function storeAndWake(
  deps: CollectionServiceDeps,
  collection: Collection,
  units: number,
): Promise<void> {
  const giveBack = () => releaseUnits(deps, collection, units);
  try {
    await deps.collections.create(collection);
  } catch (error) {
    await giveBack();
    throw error;
  }
  try {
    await wake(deps, collection, true);
  } catch (error) {
    await giveBack();
    collection.status = 'failed';
    collection.problem = storeProblem(error);
    collection.videos = collection.videos.map((video) =>
      isSettled(video) ? video : { ...video, status: 'cancelled', prepaid: false },
    );
    await deps.collections.save(collection).catch(() => undefined);
    throw error;
  }
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

/** How many of `works` have no summary made or under way: the new ones, each a unit. */
async function newOnes(
  { records }: Pick<CollectionServiceDeps, 'records'>,
  works: readonly Work[],
): Promise<boolean[]> {
  const fresh: boolean[] = new Array(works.length).fill(true);
  for (let start = 0; start < works.length; start += LOOKUPS_AT_ONCE) {
    await Promise.all(
      works.slice(start, start + LOOKUPS_AT_ONCE).map(async (work, i) => {
        const use = reusable(await records.get(summaryKey(work)));
        fresh[start + i] = use !== 'done' && use !== 'running';
      }),
    );
  }
  return fresh;
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

/** Wakes the collection's driver; `strict` throws when the queue refuses, else it is logged. */
async function wake(
  { queue, logger }: Pick<CollectionServiceDeps, 'queue' | 'logger'>,
  collection: Collection,
  strict: boolean,
): Promise<void> {
  try {
    await queue.send({ collection: collection.id, request_id: collection.requestId });
  } catch (error) {
    if (strict) throw error instanceof HttpError ? error : new QueueUnavailableError(error);
    logger.warn('could not wake a collection', { collection_id: collection.id, error });
  }
}

/** Gives back `units` prepaid units of a collection's day. */
async function releaseUnits(
  { quota, logger }: Pick<CollectionServiceDeps, 'quota' | 'logger'>,
  collection: Collection,
  units: number,
): Promise<void> {
  const day = collection.prepaidDay;
  if (day === undefined) return;
  for (let i = 0; i < units; i++) {
    await quota.release(collection.userId, day).catch((error: unknown) => {
      logger.warn('could not give back a quota unit', { error: String(error) });
    });
  }
}
