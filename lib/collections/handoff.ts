// What the service hands on: a collection's driver woken through the job queue, and the prepaid
// quota units of videos that will not run given back.
import { HttpError } from '../errors';
import { QueueUnavailableError } from '../summaries/jobs/errors';
import type { CollectionServiceDeps } from './service';
import type { Collection } from './store';

/** Wakes the collection's driver; `strict` throws when the queue refuses, else it is logged. */
export async function wake(
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
export async function releaseUnits(
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
