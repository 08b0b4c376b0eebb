// The key points of a collection's summaries, numbered across its videos: what an overview's
// themes cite. Each was checked against its video's transcript when its summary was made, so a
// theme that cites one by its number cites a moment that video's captions bear out; a theme
// can cite nothing else.
import { keyPointUrl } from '../../transcripts/anchors';
import type { SummarizedVideo } from '../driver';
import type { CollectionCitation } from '../schemas';

/** A key point of one of the collection's videos. */
export interface NumberedPoint {
  /** 1-based, across the collection, in its order: the `[K<n>]` a model cites. */
  n: number;
  videoIndex: number;
  videoId: string;
  text: string;
  startSeconds: number;
}

/** Every key point of the videos, numbered in the collection's order. */
export function numberedPoints(videos: readonly SummarizedVideo[]): NumberedPoint[] {
  const points: NumberedPoint[] = [];
  videos.forEach((video, videoIndex) => {
    for (const point of video.summary.key_points ?? []) {
      points.push({
        n: points.length + 1,
        videoIndex,
        videoId: video.videoId,
        text: point.text,
        startSeconds: point.start_seconds,
      });
    }
  });
  return points;
}

/** A key point as a theme's citation: its video, moment, link and words. */
export function citationOf(point: NumberedPoint): CollectionCitation {
  return {
    video_id: point.videoId,
    text: point.text,
    start_seconds: point.startSeconds,
    url: keyPointUrl(point.videoId, Math.round(point.startSeconds * 1000)),
  };
}
