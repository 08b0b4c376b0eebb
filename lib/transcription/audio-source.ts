// The audio of a video without captions, as a transcription reads it: from the first offer
// (client) whose media server serves it. Of a format with an index (DASH `initRange` and
// `indexRange`, youtube/audio/segments.ts) only the init segment and the index come first, a few
// KB that give the audio's real length and its segments; its media bytes then come part by part.
// A format without an index, or with one that does not read, is downloaded whole.

import type { Logger } from '../logger';
import { bound } from '../util/bound';
import type { AudioOffer } from '../youtube/audio/audio';
import { AudioTooLargeError, ForeignMediaError, MediaRefusedError } from '../youtube/audio/media';
import {
  type ByteRange,
  type MediaIndex,
  MediaIndexError,
  readMediaIndex,
} from '../youtube/audio/segments';
import type { CaptionlessVideo, YouTubeClient } from '../youtube/client';
import { youTubeBadResponse } from '../youtube/errors';
import type { AudioFile } from './backend';
import { checkUploadSize, transcriptionTooLarge } from './errors';

/** The audio chosen for a transcription, and what is known of it before its media bytes. */
export interface LocatedAudio {
  offer: AudioOffer;
  /** Its index and the bytes it was read from (the init segment first), when it has one. */
  indexed?: { index: MediaIndex; head: Uint8Array };
  /** The whole audio, when it had to be downloaded whole to be located (no index). */
  whole?: AudioFile;
}

export interface AudioSourceDeps {
  youtube: () => Promise<Pick<YouTubeClient, 'downloadAudio'>>;
  /** TRANSCRIPTION_MAX_MB, in bytes: no more is downloaded. */
  maxBytes: number;
  logger: Logger;
}

/** Where the audio is read from, and how much of it. */
export interface Fetch {
  videoId: string;
  signal: AbortSignal;
  /**
   * The most a whole audio may be when it has no index to cut it by (an upload backend's limit,
   * in bytes): larger, it is refused before it is downloaded.
   */
  wholeLimitBytes?: number;
}

/** The audio of a video's offers. */
export function createAudioSource(deps: AudioSourceDeps) {
  return { locate: bound(deps, locate), range: bound(deps, range), whole: bound(deps, whole) };
}

/**
 * The bytes of `offer` (`range` of them, or all).
 * @throws 422 transcription-too-large past TRANSCRIPTION_MAX_MB, and what downloadAudio throws.
 */
async function bytesOf(deps: AudioSourceDeps, offer: AudioOffer, fetch: Fetch, range?: ByteRange) {
  const youtube = await deps.youtube();
  try {
    return await youtube.downloadAudio(offer, {
      userAgent: offer.userAgent,
      maxBytes: deps.maxBytes,
      signal: fetch.signal,
      ...(range ? { range } : {}),
    });
  } catch (error) {
    if (error instanceof AudioTooLargeError) {
      throw transcriptionTooLarge(error.bytes, {
        mb: Math.round(deps.maxBytes / 1_048_576),
        variable: 'TRANSCRIPTION_MAX_MB',
      });
    }
    throw error;
  }
}

/** The index of an offer that has one, or undefined when it does not read (then: whole). */
async function indexOf(
  deps: AudioSourceDeps,
  offer: AudioOffer,
  fetch: Fetch,
): Promise<LocatedAudio['indexed']> {
  const { logger } = deps;
  if (!offer.initRange || !offer.indexRange) return undefined;
  const head = await bytesOf(deps, offer, fetch, { start: 0, end: offer.indexRange.end });
  try {
    const index = readMediaIndex(head, {
      mimeType: offer.mimeType,
      initRange: offer.initRange,
      indexRange: offer.indexRange,
      ...(offer.exact && offer.bytes !== undefined ? { contentLength: offer.bytes } : {}),
    });
    return { index, head };
  } catch (error) {
    if (!(error instanceof MediaIndexError)) throw error;
    logger.warn('audio index unreadable: the audio is downloaded whole', {
      video_id: fetch.videoId,
      itag: offer.itag,
      error: error.message,
    });
    return undefined;
  }
}

/**
 * The first offer whose media server serves it, with its index (or its whole audio).
 * @throws 502 youtube-bad-response when no client's audio is served; 422
 *   transcription-too-large; YouTube's failures of the download.
 */
async function locate(
  deps: AudioSourceDeps,
  found: CaptionlessVideo,
  fetch: Fetch,
): Promise<LocatedAudio> {
  const { logger } = deps;
  const refusals: string[] = [];
  for (const offer of found.offers) {
    try {
      const indexed = await indexOf(deps, offer, fetch);
      // The download would be for nothing when the player says it is too large for one upload.
      if (!indexed && fetch.wholeLimitBytes !== undefined) {
        checkUploadSize(offer.bytes, fetch.wholeLimitBytes);
      }
      const located: LocatedAudio = indexed
        ? { offer, indexed }
        : { offer, whole: fileOf(offer, fetch, await bytesOf(deps, offer, fetch)) };
      logger.info('audio located', {
        video_id: fetch.videoId,
        client: offer.client,
        itag: offer.itag,
        indexed: indexed !== undefined,
        ...(indexed
          ? { segments: indexed.index.segments.length, duration_ms: indexed.index.durationMs }
          : { bytes: located.whole?.bytes.byteLength }),
      });
      return located;
    } catch (error) {
      // Another client's URL may be served: this one's refusal is this client's.
      if (error instanceof MediaRefusedError || error instanceof ForeignMediaError) {
        logger.warn('audio not downloaded from this client', {
          client: offer.client,
          error: error.message,
        });
        refusals.push(`${offer.client}: ${error.message}`);
        continue;
      }
      throw error;
    }
  }
  throw youTubeBadResponse(`no client's audio could be downloaded (${refusals.join('; ')})`);
}

/**
 * Bytes of the located audio (a part's segments).
 * @throws 502 youtube-bad-response when the media server refuses them now, and what
 *   downloadAudio throws.
 */
async function range(deps: AudioSourceDeps, located: LocatedAudio, fetch: Fetch, bytes: ByteRange) {
  try {
    return await bytesOf(deps, located.offer, fetch, bytes);
  } catch (error) {
    if (error instanceof MediaRefusedError || error instanceof ForeignMediaError) {
      throw youTubeBadResponse(`the media server refused part of the audio (${error.message})`);
    }
    throw error;
  }
}

/** The whole audio of the located offer (a job backend takes it whole). */
async function whole(
  deps: AudioSourceDeps,
  located: LocatedAudio,
  fetch: Fetch,
): Promise<AudioFile> {
  if (located.whole) return located.whole;
  const end = located.indexed?.index.segments.at(-1)?.bytes.end;
  const bytes =
    end === undefined
      ? await bytesOf(deps, located.offer, fetch)
      : await range(deps, located, fetch, { start: 0, end });
  return fileOf(located.offer, fetch, bytes, located.indexed?.index.durationMs);
}

function fileOf(offer: AudioOffer, fetch: Fetch, bytes: Uint8Array, durationMs?: number) {
  const file: AudioFile = { bytes, mimeType: offer.mimeType, videoId: fetch.videoId };
  if (durationMs !== undefined) file.durationMs = durationMs;
  return file;
}

export type AudioSource = ReturnType<typeof createAudioSource>;
