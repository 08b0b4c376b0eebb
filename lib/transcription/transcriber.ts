// Transcribes the audio of a video without usable captions, for the summary worker: checks the
// limits before any download (TRANSCRIPTION_MAX_MINUTES, TRANSCRIPTION_MAX_MB, the backend's
// upload limit), claims the video so that concurrent runs transcribe it once (store.ts), charges
// the minutes to the user whose job started the run, downloads the audio (the first client's
// smallest format whose media server serves it) and hands it to the backend as it is. The
// transcript is kept by video: later summaries, questions and MCP calls reuse it (reuse.ts).
import { randomUUID } from 'node:crypto';
import { HttpError, UnprocessableError } from '../errors';
import type { Logger } from '../logger';
import type { Cache } from '../summaries/store/cache';
import { transcribedKey } from '../summaries/store/cache';
import { givesUnitBack } from '../summaries/store/quota';
import { sleep } from '../util/retry';
import type { AudioOffer } from '../youtube/audio/audio';
import { AudioTooLargeError, ForeignMediaError, MediaRefusedError } from '../youtube/audio/media';
import type { CaptionlessVideo, YouTubeClient } from '../youtube/client';
import { youTubeBadResponse } from '../youtube/errors';
import type { Video } from '../youtube/types';
import { type AudioFile, type TranscriptionBackend, transcriptOf } from './backend';
import {
  audioUnavailable,
  TranscriptionPendingError,
  transcriptionTooLarge,
  videoTooLongToTranscribe,
} from './errors';
import type { Claimed, MinutesCharge, TranscriptionStore } from './store';

export interface TranscriberDeps {
  backend: TranscriptionBackend;
  store: TranscriptionStore;
  /** Finished transcriptions, by video (transcribedKey). */
  transcriptions: Cache<Video>;
  youtube: () => Promise<Pick<YouTubeClient, 'downloadAudio'>>;
  /** TRANSCRIPTION_MAX_MINUTES and TRANSCRIPTION_MAX_MB. */
  limits: { maxMinutes: number; maxMb: number };
  /** How long a claim holds without renewal (JOB_LEASE_SECONDS); renewed a third of the way. */
  leaseMs: number;
  logger: Logger;
  /** How often a run that waits for another's transcription looks again (default 1 s). */
  waitMs?: number;
}

/** What a summary run asks of a transcription. */
export interface TranscriptionRequest {
  videoId: string;
  /** The run's deadline, and when it is (epoch ms). */
  signal: AbortSignal;
  deadlineAt: number;
  /** Who pays the minutes: the user whose job started the run (none: nobody is charged). */
  payer?: string | undefined;
  /** Told once the transcription starts (the job's stage becomes `transcribing`). */
  onTranscribing?: (() => Promise<void>) | undefined;
}

export type Transcriber = (
  found: CaptionlessVideo,
  request: TranscriptionRequest,
) => Promise<Video>;

/** Kept before the run's deadline: time to give the claim back and hand the run over. */
const HAND_OVER_MARGIN_MS = 5_000;

/**
 * The transcriber over its collaborators.
 * The returned function throws HttpErrors: 422 (captions-disabled with no usable audio,
 * video-too-long-to-transcribe, transcription-too-large, transcription-rejected,
 * transcript-empty), 429 transcription-budget-exceeded, 502 transcription-error and YouTube's
 * own failures of the download; TranscriptionPendingError when the run's time ends first.
 */
export function createTranscriber(deps: TranscriberDeps): Transcriber {
  const { backend, store, logger } = deps;
  const maxBytes = deps.limits.maxMb * 1_048_576;

  /** The 422s every request gets before anything is downloaded, claimed or charged. */
  function checkLimits(found: CaptionlessVideo): number {
    if (found.offers.length === 0) throw audioUnavailable(found.problem, found.cipheredOnly);
    const seconds = found.metadata.duration_seconds;
    const minutes = seconds ? Math.ceil(seconds / 60) : null;
    if (minutes === null || minutes > deps.limits.maxMinutes) {
      throw videoTooLongToTranscribe(minutes, deps.limits.maxMinutes);
    }
    const sizes = found.offers.flatMap((offer) => (offer.bytes === undefined ? [] : [offer.bytes]));
    const smallest = sizes.length > 0 ? Math.min(...sizes) : undefined;
    if (smallest !== undefined && smallest > maxBytes) {
      throw transcriptionTooLarge(smallest, {
        mb: deps.limits.maxMb,
        variable: 'TRANSCRIPTION_MAX_MB',
      });
    }
    tooLargeToUpload(smallest);
    return minutes;
  }

  /** @throws 422 transcription-too-large when the backend cannot take `bytes` in one upload. */
  function tooLargeToUpload(bytes: number | undefined): void {
    const limit = backend.kind === 'upload' ? backend.uploadLimitBytes : undefined;
    if (limit !== undefined && bytes !== undefined && bytes > limit) {
      throw transcriptionTooLarge(bytes, {
        mb: Math.round(limit / 1_048_576),
        variable: 'TRANSCRIPTION_MAX_UPLOAD_MB',
      });
    }
  }

  /** The audio of the first offer whose media server serves it; records which one it was. */
  async function download(
    found: CaptionlessVideo,
    request: TranscriptionRequest,
    used: { offer?: AudioOffer },
  ): Promise<AudioFile> {
    const youtube = await deps.youtube();
    const refusals: string[] = [];
    for (const offer of found.offers) {
      try {
        const bytes = await youtube.downloadAudio(offer, {
          userAgent: offer.userAgent,
          maxBytes,
          signal: request.signal,
        });
        tooLargeToUpload(bytes.byteLength);
        used.offer = offer;
        logger.info('audio downloaded', {
          video_id: request.videoId,
          client: offer.client,
          itag: offer.itag,
          bytes: bytes.byteLength,
        });
        return { bytes, mimeType: offer.mimeType, videoId: request.videoId };
      } catch (error) {
        if (error instanceof AudioTooLargeError) {
          throw transcriptionTooLarge(error.bytes, {
            mb: deps.limits.maxMb,
            variable: 'TRANSCRIPTION_MAX_MB',
          });
        }
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

  /** Transcribes under a claim of the video; the claim is given back however it ends. */
  async function underClaim(
    found: CaptionlessVideo,
    request: TranscriptionRequest,
    claimed: Claimed,
    owner: string,
    minutes: number,
  ): Promise<Video> {
    const { videoId, signal } = request;
    const handOverAt = request.deadlineAt - HAND_OVER_MARGIN_MS;
    const heartbeat = setInterval(() => {
      store.renew(videoId, owner).catch((error: unknown) => {
        logger.warn('could not renew a transcription claim', { error: String(error) });
      });
    }, deps.leaseMs / 3);
    heartbeat.unref();
    let charge: MinutesCharge | undefined = claimed.charge;
    let jobName = claimed.jobName;
    const used: { offer?: AudioOffer } = {};
    const startedAt = Date.now();
    try {
      if (!charge && request.payer) {
        charge = await store.charge(request.payer, minutes);
        await store.remember(videoId, owner, { charge });
      }
      await request.onTranscribing?.();
      logger.info('transcription started', {
        video_id: videoId,
        backend: backend.name,
        minutes,
        resumed: jobName !== undefined,
      });
      const language = found.offers[0]?.language;
      const heard =
        backend.kind === 'upload'
          ? await backend.transcribeFile(await download(found, request, used), {
              signal,
              handOverAt,
              ...(language ? { language } : {}),
            })
          : await backend.transcribe(() => download(found, request, used), {
              signal,
              handOverAt,
              ...(language ? { language } : {}),
              ...(jobName ? { resume: jobName } : {}),
              started: async (name) => {
                jobName = name;
                await store.remember(videoId, owner, { jobName: name });
              },
            });
      const transcript = transcriptOf(heard, language);
      if (transcript.segments.length === 0) {
        throw new UnprocessableError(
          'transcript-empty',
          'Transcript empty',
          "The transcription of this video's audio holds no spoken text to summarise.",
        );
      }
      const client = (used.offer ?? found.offers[0])?.client ?? 'unknown';
      const video: Video = {
        metadata: found.metadata,
        transcript,
        client,
        source: 'transcription',
      };
      await deps.transcriptions.put(transcribedKey(videoId), video).catch((error: unknown) => {
        logger.warn('could not keep the transcription', { error: String(error) });
      });
      await store.release(videoId, owner, false).catch(() => undefined);
      logger.info('transcription done', {
        video_id: videoId,
        backend: backend.name,
        language: transcript.language,
        words: transcript.wordCount,
        elapsed_ms: Date.now() - startedAt,
      });
      return video;
    } catch (error) {
      // A job that goes on without this run (out of time, or stopped) is the next run's.
      const goesOn =
        error instanceof TranscriptionPendingError || (signal.aborted && jobName !== undefined);
      await store.release(videoId, owner, goesOn).catch((releaseError: unknown) => {
        logger.warn('could not give a transcription claim back', { error: String(releaseError) });
      });
      if (!goesOn && charge && refundable(error, signal)) {
        await store.refund(charge).catch((refundError: unknown) => {
          logger.warn('could not give transcription minutes back', { error: String(refundError) });
        });
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  return async (found, request) => {
    const minutes = checkLimits(found);
    const { videoId, signal } = request;
    const owner = randomUUID();
    const key = transcribedKey(videoId);
    let waiting = false;
    for (;;) {
      const claimed = await store.claim(videoId, owner);
      // Whoever holds the claim may have finished meanwhile.
      const done = await deps.transcriptions.get(key);
      if (done) {
        if (claimed !== 'busy') await store.release(videoId, owner, false).catch(() => undefined);
        return done;
      }
      if (claimed !== 'busy') return underClaim(found, request, claimed, owner, minutes);
      // Another run transcribes this video: wait for its transcript rather than pay twice. The
      // job says it is transcribing meanwhile: its summary waits for exactly that.
      if (!waiting) {
        waiting = true;
        await request.onTranscribing?.();
      }
      const waitMs = deps.waitMs ?? 1_000;
      if (Date.now() + waitMs >= request.deadlineAt - HAND_OVER_MARGIN_MS) {
        throw new TranscriptionPendingError(`another run is transcribing ${videoId}`);
      }
      if (!(await sleep(waitMs, signal))) throw signal.reason;
    }
  };
}

/**
 * Whether minutes charged for a transcription that failed come back, as a summary's unit does
 * (givesUnitBack): for failures of ours or of the backend, and a run stopped before any result.
 */
function refundable(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted) return true;
  return !(error instanceof HttpError) || givesUnitBack(error);
}
