// A collection as the API shows it (the Collection schema), and what its videos' summary jobs
// say of them: the one mapping from a job's status to a collection video's.
import { storedProblemDocument } from '../problems/codec';
import type { CollectionVideoStatus, CollectionView } from './schemas';
import type { Collection, StoredVideo } from './store';

/** Statuses a video keeps: nothing more happens to it. */
const SETTLED: ReadonlySet<CollectionVideoStatus> = new Set([
  'done',
  'failed',
  'cancelled',
  'skipped',
]);

export const isSettled = (video: Pick<StoredVideo, 'status'>) => SETTLED.has(video.status);

/** Seconds a client should wait before polling a collection again. */
export function collectionPollSeconds(collection: Pick<Collection, 'status'>): number {
  return collection.status === 'queued' ? 2 : 5;
}

/** The Retry-After header of a collection still under way (none once it is settled). */
export function retryAfterOf(collection: Pick<Collection, 'status'>): Record<string, string> {
  const unfinished = collection.status === 'queued' || collection.status === 'running';
  return unfinished ? { 'Retry-After': String(collectionPollSeconds(collection)) } : {};
}

/** The collection as the API shows it. */
export function collectionView(collection: Collection): CollectionView {
  const { request } = collection;
  return {
    id: collection.id,
    kind: collection.kind,
    title: collection.title,
    author: collection.author,
    url: collection.url,
    status: collection.status,
    progress: {
      done: collection.videos.filter(isSettled).length,
      total: collection.videos.length,
    },
    request: {
      summary_length: request.summaryLength,
      used_model: request.model,
      summary_language: request.summaryLanguage ?? null,
      limit: request.limit,
    },
    more: collection.more,
    videos: collection.videos.map((video) => ({
      video_id: video.videoId,
      title: video.title,
      url: `https://www.youtube.com/watch?v=${video.videoId}`,
      status: video.status,
      summary_id: video.jobId ?? null,
      reason: video.reason ?? null,
      error: video.problem ? storedProblemDocument(video.problem, collection.requestId) : null,
    })),
    overview: collection.overview ?? null,
    error: collection.problem
      ? storedProblemDocument(collection.problem, collection.requestId)
      : null,
    created_at: new Date(collection.createdAt).toISOString(),
    updated_at: new Date(collection.updatedAt).toISOString(),
  };
}
