// The API's answer (the body of POST /summarize's 200, a done job's `result`), from what a run's
// summarizer made of the video: the summary, key points and chapters with links into the video,
// and the metadata of how it was made.

import { type CatalogEntry, usageMetadata } from '../models/catalog';
import { keyPointUrl } from '../transcripts/anchors';
import { transcriptMetadata } from '../transcripts/videos';
import { countWords } from '../util/words';
import type { Video } from '../youtube/types';
import type { SummarizeResponse } from './schemas';
import type { Work } from './store/records';
import type { SummaryResult } from './types';

/** The API's answer, from what the summarizer made. */
export function responseOf(
  work: Work,
  model: CatalogEntry,
  video: Video,
  result: SummaryResult,
  startedAt: number,
): SummarizeResponse {
  const { metadata, transcript } = video;
  const summaryLanguage = work.summaryLanguage ?? transcript.language;
  // Key points start where lines start: those of lines whose time was estimated say so.
  const estimated = new Set(
    transcript.segments.filter((segment) => segment.estimated).map((segment) => segment.offsetMs),
  );
  return {
    summary: result.summary,
    word_count: countWords(result.summary, summaryLanguage),
    key_points: result.keyPoints.map((point) => ({
      text: point.text,
      start_seconds: point.startMs / 1000,
      url: keyPointUrl(work.videoId, point.startMs),
      ...(estimated.has(point.startMs) ? { time_estimated: true as const } : {}),
    })),
    chapters: result.chapters.list.map((chapter) => ({
      start_seconds: chapter.startMs / 1000,
      end_seconds: chapter.endMs / 1000,
      title: chapter.title,
      summary: chapter.summary,
      url: keyPointUrl(work.videoId, chapter.startMs),
    })),
    metadata: {
      ...metadata,
      summary_language: summaryLanguage,
      ...transcriptMetadata(video),
      summary_length_requested: work.length,
      cached: false,
      chunks: result.chunks,
      chapters_source: result.chapters.source,
      ...usageMetadata(model, result.inputTokens, result.outputTokens),
      elapsed_ms: Date.now() - startedAt,
      generated_at: new Date().toISOString(),
    },
  };
}
