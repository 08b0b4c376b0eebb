// Where a video (its transcript and metadata) comes from for a summary or a question: the
// transcript cache when it was fetched within TRANSCRIPT_CACHE_TTL_SECONDS, else YouTube (then
// cached). The summary worker and POST /ask share it, so a question about a video just
// summarised costs no YouTube call, and the other way round.
import type { Logger } from '../logger';
import type { YouTubeClient } from '../youtube/client';
import type { Video } from '../youtube/types';
import { type Cache, videoKey } from './store/cache';

export interface VideoSourceDeps {
  /** Fetched videos, by video and requested caption language. */
  videos: Cache<Video>;
  /** Resolved on first use (the YouTube client is only loaded by functions that need it). */
  youtube: () => Promise<Pick<YouTubeClient, 'fetchVideo'>>;
  logger: Logger;
}

export interface VideoRequest {
  videoId: string;
  /** The caption language asked for; absent: the default track choice. */
  language?: string | undefined;
  /** The caller's deadline: aborting it ends every YouTube request at once. */
  signal: AbortSignal;
  /** When that deadline is (epoch ms): each InnerTube client gets its share of what is left. */
  deadlineAt: number;
}

/**
 * The video of a request, from the cache or from YouTube. A cache that cannot be written only
 * logs (the video was fetched all the same).
 * @throws what YouTubeClient.fetchVideo throws (404, 422, 502-504 HttpErrors), and 503
 *   storage-unavailable when the cache cannot be read.
 */
export function createVideoSource(
  deps: VideoSourceDeps,
): (request: VideoRequest) => Promise<Video> {
  return async ({ videoId, language, signal, deadlineAt }) => {
    const key = videoKey(videoId, language);
    const cached = await deps.videos.get(key);
    if (cached) return cached;
    const youtube = await deps.youtube();
    const video = await youtube.fetchVideo(videoId, { language, signal, deadlineAt });
    await deps.videos.put(key, video).catch((error: unknown) => {
      deps.logger.warn('could not cache the transcript', { error: String(error) });
    });
    return video;
  };
}
