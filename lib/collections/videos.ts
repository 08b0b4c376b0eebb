// A collection's videos as summary jobs: one started (charged to the unit the collection took
// for it, or the unit given back when no run was made), how the running ones stand, and the
// summaries of the done ones.
import { HttpError } from '../errors';
import { storeProblem } from '../problems/codec';
import type { SummaryService } from '../summaries/service';
import type { CollectionDriverDeps, SummarizedVideo } from './driver';
import type { Collection, StoredVideo } from './store';

/** Failures of a video's start that pass: the video is started again with the next delivery. */
const PASSING_STARTS = new Set(['storage-unavailable', 'summary-in-progress']);

/** Starts one video's summary job: how the video then stands. */
export async function start(
  deps: CollectionDriverDeps,
  collection: Collection,
  video: StoredVideo,
): Promise<StoredVideo> {
  const { request } = collection;
  const user = { id: collection.userId };
  const prepaid =
    video.prepaid && collection.prepaidDay ? { day: collection.prepaidDay } : undefined;
  try {
    const submitted = await deps.summaries.submit(
      user,
      {
        video_url: `https://www.youtube.com/watch?v=${video.videoId}`,
        summary_length: request.summaryLength,
        used_model: request.model,
        include_key_points: true,
        include_chapters: true,
        ...(request.summaryLanguage === undefined
          ? {}
          : { summary_language: request.summaryLanguage }),
      },
      { waitMs: 0, requestId: collection.requestId, prepaid, collection: collection.id },
    );
    // Served from the cache, or joined to a run under way: the unit taken for it goes back.
    if (prepaid && !submitted.charged) await giveBack(deps, collection);
    const status = submitted.ready ? 'done' : 'running';
    return { ...video, status, jobId: submitted.job.id, prepaid: false };
  } catch (error) {
    // The table down, or identical requests colliding: passing, the message comes again.
    if (!(error instanceof HttpError) || PASSING_STARTS.has(error.type)) throw error;
    // A verdict on the video found before (or the queue refusing): no run was made for it.
    if (prepaid) await giveBack(deps, collection);
    return { ...video, status: 'failed', problem: storeProblem(error), prepaid: false };
  }
}

export async function giveBack(deps: CollectionDriverDeps, collection: Collection): Promise<void> {
  const { logger } = deps;
  if (collection.prepaidDay === undefined) return;
  await deps.quota.release(collection.userId, collection.prepaidDay).catch((error: unknown) => {
    logger.warn('could not give back a quota unit', { error: String(error) });
  });
}

/** Reads how the running videos' jobs stand; the videos that changed, by index. */
export async function settled(
  deps: CollectionDriverDeps,
  collection: Collection,
): Promise<Map<number, StoredVideo>> {
  const changed = new Map<number, StoredVideo>();
  const user = { id: collection.userId };
  await Promise.all(
    collection.videos.map(async (video, index) => {
      if (video.status !== 'running' || video.jobId === undefined) return;
      let job: Awaited<ReturnType<SummaryService['job']>>;
      try {
        job = await deps.summaries.job(user, video.jobId);
      } catch (error) {
        // Its user removed the job from their history: the video has no summary to show.
        if (error instanceof HttpError && error.status === 404) {
          changed.set(index, { ...video, status: 'cancelled' });
          return;
        }
        throw error;
      }
      if (job.status === 'running') return;
      changed.set(index, {
        ...video,
        status: job.status,
        ...(job.problem ? { problem: job.problem } : {}),
      });
    }),
  );
  return changed;
}

/** The summaries of its done videos, in the collection's order. */
export async function summarized(
  deps: CollectionDriverDeps,
  collection: Collection,
): Promise<SummarizedVideo[]> {
  const user = { id: collection.userId };
  const found = await Promise.all(
    collection.videos.map(async (video) => {
      if (video.status !== 'done' || video.jobId === undefined) return undefined;
      const job = await deps.summaries.job(user, video.jobId).catch(() => undefined);
      return job?.result
        ? {
            videoId: video.videoId,
            title: job.result.metadata.title || video.title,
            summary: job.result,
          }
        : undefined;
    }),
  );
  return found.filter((video): video is SummarizedVideo => video !== undefined);
}
