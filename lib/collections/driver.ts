// The collection driver: what a worker does with a message that wakes a collection. Under the
// collection's lease (one advance at a time), it reads how its running videos' summary jobs
// stand, starts the next videos in the source's order until COLLECTION_CONCURRENCY run at once
// (each an ordinary summary job, charged to the unit the collection took for it), and, when
// every video is settled, makes the overview. Everything it knows is in the collection's item,
// written after each step: a worker that dies mid-way leaves nothing a later advance cannot
// pick up, and a video already started or finished is never started again. It is woken when the
// collection is made, when a video's job is settled (the summary worker tells it), and when a
// poll finds a video settled that it has not seen.
import type { HttpError } from '../errors';
import { HttpError as HttpErrorClass } from '../errors';
import type { Logger } from '../logger';
import { storeProblem } from '../problems/codec';
import type { Quota } from '../store/quota';
import type { SummarizeResponse } from '../summaries/schemas';
import type { SummaryService } from '../summaries/service';
import { randomId } from '../util/random-id';
import { CollectionFailedError } from './errors';
import type { Overview } from './schemas';
import type { Collection, CollectionStore, StoredVideo } from './store';
import { settled, start, summarized } from './videos';
import { isSettled } from './view';

/** A video of the collection with its summary, what an overview is made of. */
export interface SummarizedVideo {
  videoId: string;
  title: string;
  summary: SummarizeResponse;
}

export interface CollectionDriverDeps {
  collections: CollectionStore;
  summaries: Pick<SummaryService, 'submit' | 'job'>;
  quota: Pick<Quota, 'release'>;
  /** The overview of a collection's summarized videos, with the collection's model. */
  overview: (collection: Collection, videos: SummarizedVideo[]) => Promise<Overview>;
  /** Videos summarized at once (COLLECTION_CONCURRENCY). */
  concurrency: number;
  /** How long an advance holds the collection (renewed while it makes the overview). */
  leaseMs: number;
  logger: Logger;
}

export interface AdvanceOptions {
  /** Take the lease even from a live holder (a resumed crash: no other process holds it). */
  force?: boolean;
  /** The message's last delivery: a passing failure of the overview fails the collection. */
  lastDelivery?: boolean;
}

/** How an advance ended. */
export type AdvanceOutcome = 'advanced' | 'busy' | 'gone';

/** How often a write lost to DELETE is tried again with what the store now says. */
const MAX_WRITES = 10;

/** Passing failures of the overview's model: the message is delivered again. */
const PASSING = new Set([429, 503, 504]);

/** What the worker does with a collection's message: its videos started, then its overview. */
export function createCollectionDriver(deps: CollectionDriverDeps) {
  return {
    advance: (id: string, options: AdvanceOptions = {}) => advanceCollection(deps, id, options),
  };
}

/**
 * Advances a collection: 'busy' when another advance holds it (it is poked and looks again),
 * 'gone' when there is no such collection.
 * @throws what the store throws (the message is delivered again), and passing failures of
 *   the overview's model before the message's last delivery.
 */
export async function advanceCollection(
  deps: CollectionDriverDeps,
  id: string,
  options: AdvanceOptions = {},
): Promise<AdvanceOutcome> {
  const { collections } = deps;
  const owner = randomId();
  if (!(await collections.acquire(id, owner, deps.leaseMs, options.force))) return 'busy';
  try {
    for (;;) {
      const collection = await collections.get(id);
      if (!collection) return 'gone';
      if (collection.lease.owner !== owner) return 'busy';
      const pokes = collection.lease.pokes;
      if (collection.status === 'queued' || collection.status === 'running') {
        await step(deps, collection, owner, options);
      }
      if (await collections.release(id, owner, pokes)) return 'advanced';
    }
  } catch (error) {
    if (error instanceof LeaseLost) return 'busy';
    // The lease lapses by itself; given back now, the message's next delivery needs no wait.
    await collections.release(id, owner).catch(() => undefined);
    throw error;
  }
}

/** A change that sets one video of the collection (see persist). */
const setVideo = (index: number, video: StoredVideo) => (collection: Collection) => {
  // A video DELETE cancelled meanwhile that did start keeps its start: its job goes on.
  collection.videos[index] = video;
  if (collection.status === 'queued') collection.status = 'running';
};

/**
 * Applies `change` to the collection and writes it; when another write came first (DELETE),
 * applies it to what the store now says. The collection as written.
 */
async function persist(
  deps: CollectionDriverDeps,
  collection: Collection,
  owner: string,
  change: (collection: Collection) => void,
): Promise<Collection> {
  const { collections } = deps;
  let current = collection;
  for (let attempt = 0; attempt < MAX_WRITES; attempt++) {
    change(current);
    if (await collections.save(current, owner)) return current;
    const fresh = await collections.get(current.id);
    if (!fresh || fresh.lease.owner !== owner) throw new LeaseLost();
    current = fresh;
  }
  throw new LeaseLost();
}

/** Makes the overview (or fails the collection) once every video is settled. */
async function finish(
  deps: CollectionDriverDeps,
  collection: Collection,
  owner: string,
  options: AdvanceOptions,
): Promise<Collection> {
  const { collections, logger } = deps;
  const videos = await summarized(deps, collection);
  if (videos.length === 0) {
    const problem = storeProblem(new CollectionFailedError(collection.videos.length));
    return persist(deps, collection, owner, (c) => {
      c.status = 'failed';
      c.problem = problem;
    });
  }
  const renewal = setInterval(
    () => {
      collections.renew(collection.id, owner, deps.leaseMs).catch(() => undefined);
    },
    Math.max(500, deps.leaseMs / 3),
  );
  try {
    const overview = await deps.overview(collection, videos);
    logger.info('collection overview made', {
      collection_id: collection.id,
      videos: videos.length,
      themes: overview.themes.length,
    });
    return await persist(deps, collection, owner, (c) => {
      c.status = 'done';
      c.overview = overview;
    });
  } catch (error) {
    if (!(error instanceof HttpErrorClass)) throw error;
    if (PASSING.has(error.status) && !options.lastDelivery) throw error;
    const problem = storeProblem(error as HttpError);
    logger.warn('collection overview failed', { collection_id: collection.id, error });
    return persist(deps, collection, owner, (c) => {
      c.status = 'failed';
      c.problem = problem;
    });
  } finally {
    clearInterval(renewal);
  }
}

/** One look at the collection: its settled videos, the next ones started, maybe the end. */
async function step(
  deps: CollectionDriverDeps,
  initial: Collection,
  owner: string,
  options: AdvanceOptions,
) {
  const { logger } = deps;
  let collection = initial;
  for (const [index, video] of await settled(deps, collection)) {
    collection = await persist(deps, collection, owner, setVideo(index, video));
  }
  let running = collection.videos.filter((video) => video.status === 'running').length;
  for (let index = 0; index < collection.videos.length; index++) {
    if (running >= deps.concurrency || collection.status === 'cancelled') break;
    const video = collection.videos[index];
    if (video?.status !== 'queued') continue;
    const started = await start(deps, collection, video);
    collection = await persist(deps, collection, owner, setVideo(index, started));
    if (started.status === 'running') running++;
    logger.info('collection video started', {
      collection_id: collection.id,
      video_id: video.videoId,
      status: started.status,
    });
  }
  if (collection.status !== 'cancelled' && collection.videos.every(isSettled)) {
    await finish(deps, collection, owner, options);
  }
}

/** The lease was taken over: another advance goes on with the collection. */
class LeaseLost extends Error {
  override name = 'LeaseLost';
}

export type CollectionDriver = ReturnType<typeof createCollectionDriver>;
