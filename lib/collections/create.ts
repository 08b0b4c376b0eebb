// POST /collections: a request is checked whole before any I/O (the URL's form, the model, the
// length), then the playlist or channel is read, the videos whose summaries are new are counted
// and their quota units taken at once (a 429 before anything starts when too few are left), and
// the collection is stored and handed to the driver through the job queue.
import type { User } from '../accounts/users/store';
import { resolveModel } from '../models/catalog';
import { storeProblem } from '../problems/codec';
import { plannerFor, SummaryLengthError } from '../summaries/llm/plan';
import { reusable, summaryKey, type Work } from '../summaries/store/records';
import { withoutHidden } from '../util/text';
import { CollectionEmptyError } from './errors';
import { releaseUnits, wake } from './handoff';
import type { CollectionRequest as Body, CollectionView } from './schemas';
import type { CollectionServiceDeps } from './service';
import {
  type Collection,
  type CollectionRequest,
  newCollectionId,
  type StoredVideo,
} from './store';
import { collectionView, isSettled } from './view';

/**
 * A name YouTube gives (a title, a channel): third parties' text, shown on the page and in
 * Markdown. Without hidden characters, and as long as YouTube lets a name be, with room to spare.
 */
const NAME_CHARS = 300;
const cleanName = (name: string) => withoutHidden(name).trim().slice(0, NAME_CHARS);

/** Summary records looked up at once when counting a collection's new summaries. */
const LOOKUPS_AT_ONCE = 16;

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
