// The transcript of a video for get_transcript: from the transcript cache the worker fills (a
// video summarised or read in the last TRANSCRIPT_CACHE_TTL_SECONDS costs nothing), else from
// YouTube through the same acquisition as a summary. A lookup that reaches YouTube takes a unit
// of the caller's daily quota, as a new summary does: without it, anyone with a key could make
// this service ask YouTube for transcripts without limit, from its own address (which YouTube
// blocks) and through the operator's paid proxy. The answer is one page of the captions.

import type { User } from '../accounts/users/store';
import { HttpError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import type { Cache } from '../store/cache';
import { videoKey } from '../store/cache';
import { givesUnitBack, type Quota } from '../store/quota';
import type { CaptionlessHandler } from '../transcription/reuse';
import { lookUp } from '../transcripts/videos';
import type { YouTubeClient } from '../youtube/client';
import type { Video } from '../youtube/types';
import { parseVideoId } from '../youtube/url';
import { TRANSCRIPT_PAGE_CHARACTERS, type TranscriptArgs, type TranscriptPage } from './schemas';

export interface TranscriptServiceDeps {
  /** Fetched videos (transcript and metadata), shared with the summary worker. */
  videos: Cache<Video>;
  /** Resolved on first use: a cached transcript never loads the YouTube client. */
  youtube: () => Promise<Pick<YouTubeClient, 'lookUpVideo'>>;
  /** A video without captions: the transcription a summary made of it, if any. */
  captionless: CaptionlessHandler;
  quota: Quota;
  logger: Logger;
}

export interface TranscriptService {
  /**
   * One page of a video's captions in the range `args` asks for, fetched by `deadlineAt`.
   * @throws HttpError: 422 (bad URL, no captions, ...), 404 (no such video), 429 (quota, on a
   * lookup that is not cached), 502-504 (YouTube), 503 (the store); ConfigError when the
   * operator's credentials cannot be read.
   */
  page(user: User, args: TranscriptArgs, budget: { deadlineAt: number }): Promise<TranscriptPage>;
}

/** A caption start a client sent back (next_start_seconds) may come back a float's hair off. */
const MS_TOLERANCE = 0.5;

/** Where a page goes on: a caption's start, and how many characters of it came already. */
interface Cursor {
  ms: number;
  skip: number;
}

const CURSOR_TEXT = /^(\d{1,12}(?:\.\d{1,3})?):(\d{1,7})$/;

const encodeCursor = ({ ms, skip }: Cursor): string =>
  Buffer.from(`${Math.round(ms * 1000) / 1000}:${skip}`).toString('base64url');

/** @throws ValidationError for a cursor this tool did not give. */
function decodeCursor(cursor: string): Cursor {
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) {
    throw new ValidationError([
      { field: 'cursor', message: 'Use a cursor this tool gave, or none.' },
    ]);
  }
  return { ms: Number(match[1]), skip: Number(match[2]) };
}

/** What a page's JSON takes besides its captions, at most (the longest trailer it can have). */
function envelopeLength(
  base: Omit<TranscriptPage, 'segments' | 'truncated' | 'next_start_seconds' | 'next_cursor'>,
): number {
  return JSON.stringify({
    ...base,
    segments: [],
    truncated: true,
    next_start_seconds: 999_999_999.999,
    next_cursor: 'x'.repeat(64),
  }).length;
}

/** The longest start of `text` whose JSON string takes at most `room` characters (quotes too). */
function fittingPrefix(text: string, room: number): number {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (JSON.stringify(text.slice(0, middle)).length <= room) low = middle;
    else high = middle - 1;
  }
  // Never half of a character outside the BMP (a surrogate pair).
  const code = text.charCodeAt(low - 1);
  return code >= 0xd800 && code <= 0xdbff ? low - 1 : low;
}

/**
 * The captions that start in the range, as many as fit one answer: its JSON, whole, takes at
 * most TRANSCRIPT_PAGE_CHARACTERS. A caption too long for a page by itself is cut, and the next
 * page (next_cursor) goes on from where it was cut.
 * @throws ValidationError for a cursor this tool did not give.
 */
export function pageOf(video: Video, args: TranscriptArgs): TranscriptPage {
  const cursor = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
  const fromMs = (cursor ? cursor.ms : (args.start_seconds ?? 0) * 1000) - MS_TOLERANCE;
  const toMs = args.end_seconds === undefined ? Infinity : args.end_seconds * 1000 - MS_TOLERANCE;
  // By start, not by overlap: a page then begins exactly where the last one stopped.
  const inRange = video.transcript.segments.filter(
    (segment) => segment.offsetMs >= fromMs && segment.offsetMs < toMs,
  );
  const base = {
    video_id: video.metadata.video_id,
    title: video.metadata.title,
    duration_seconds: video.metadata.duration_seconds,
    language: video.transcript.language,
    auto_generated: video.transcript.autoGenerated,
    source: video.source,
  };
  let room = TRANSCRIPT_PAGE_CHARACTERS - envelopeLength(base);
  const segments: TranscriptPage['segments'] = [];
  let next: Cursor | undefined;
  for (const [i, segment] of inRange.entries()) {
    const skip = i === 0 && cursor ? cursor.skip : 0;
    const item = { start_seconds: segment.offsetMs / 1000, text: segment.text.slice(skip) };
    const cost = JSON.stringify(item).length + (segments.length > 0 ? 1 : 0);
    if (cost <= room) {
      segments.push(item);
      room -= cost;
      continue;
    }
    if (segments.length === 0) {
      // Longer than a page by itself: as much as fits, so that paging always moves on.
      const overhead = JSON.stringify({ ...item, text: '' }).length - 2;
      const cut = Math.max(1, fittingPrefix(item.text, room - overhead));
      segments.push({ ...item, text: item.text.slice(0, cut) });
      next = { ms: segment.offsetMs, skip: skip + cut };
    } else {
      next = { ms: segment.offsetMs, skip };
    }
    break;
  }
  return {
    ...base,
    segments,
    truncated: next !== undefined,
    next_start_seconds: next === undefined ? null : next.ms / 1000,
    next_cursor: next === undefined ? null : encodeCursor(next),
  };
}

/** The transcript service over its collaborators (all injectable for tests). */
export function createTranscriptService(deps: TranscriptServiceDeps): TranscriptService {
  const { videos, quota, logger } = deps;

  async function fetchVideo(
    user: User,
    videoId: string,
    language: string | undefined,
    deadlineAt: number,
  ): Promise<Video> {
    const key = videoKey(videoId, language);
    const cached = await videos.get(key);
    if (cached) return cached;
    const { day } = await quota.reserve(user.id);
    try {
      const video = await lookUp(deps, {
        videoId,
        language,
        signal: AbortSignal.timeout(Math.max(1, deadlineAt - Date.now())),
        deadlineAt,
      });
      await videos.put(key, video).catch((error: unknown) => {
        logger.warn('could not cache the transcript', { error: String(error) });
      });
      return video;
    } catch (error) {
      // Ours (the credentials, the store) or no request reached YouTube: the unit comes back.
      if (!(error instanceof HttpError) || givesUnitBack(error)) {
        await quota.release(user.id, day).catch((releaseError: unknown) => {
          logger.warn('could not give back a quota unit', { error: String(releaseError) });
        });
      }
      throw error;
    }
  }

  return {
    async page(user, args, { deadlineAt }) {
      const videoId = parseVideoId(args.video_url);
      const video = await fetchVideo(user, videoId, args.language, deadlineAt);
      return pageOf(video, args);
    },
  };
}
