// Transcribes the audio of a video without usable captions, for the summary worker: checks the
// limits before any download (TRANSCRIPTION_MAX_MINUTES, TRANSCRIPTION_MAX_MB), claims the video
// so that concurrent runs transcribe it once, reads the audio's index (its real
// length, what is checked and charged to the user whose job started the run) and has the
// backend transcribe it: an upload backend part by part, a job backend whole. The
// transcript is kept by video: later summaries, questions and MCP calls reuse it.
import { randomUUID } from 'node:crypto';
import { HttpError, UnprocessableError } from '../errors';
import type { Logger } from '../logger';
import type { Cache } from '../store/cache';
import { transcribedKey } from '../store/cache';
import { givesUnitBack } from '../store/quota';
import { sleep } from '../util/retry';
import type { CaptionlessVideo, YouTubeClient } from '../youtube/client';
import type { Video } from '../youtube/types';
import { createAudioSource } from './audio-source';
import { type TranscriptionBackend, transcriptOf } from './backend';
import {
  audioUnavailable,
  TranscriptionPendingError,
  transcriptionTooLarge,
  videoTooLongToTranscribe,
} from './errors';
import type { PlacedHeard } from './heard';
import type { PartsProgress } from './in-parts';
import { createTranscription, HAND_OVER_MARGIN_MS, type RunState, tooLargeToUpload } from './run';
import type { Claimed, TranscriptionStore } from './store';

export interface TranscriptionLimits {
  /** TRANSCRIPTION_MAX_MINUTES and TRANSCRIPTION_MAX_MB. */
  maxMinutes: number;
  maxMb: number;
  /** A part's most (TRANSCRIPTION_PART_MB, capped at the upload limit; _PART_MINUTES). */
  partMb: number;
  partMinutes: number;
  /** Parts at once (TRANSCRIPTION_CONCURRENCY). */
  concurrency: number;
}

export interface TranscriberDeps {
  backend: TranscriptionBackend;
  store: TranscriptionStore;
  /** Finished transcriptions, by video (transcribedKey). */
  transcriptions: Cache<Video>;
  /** Finished parts of transcriptions under way: a run that hands over loses none. */
  checkpoints: Cache<PlacedHeard>;
  youtube: () => Promise<Pick<YouTubeClient, 'downloadAudio'>>;
  limits: TranscriptionLimits;
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
  /**
   * Told once the transcription starts (the job's stage becomes `transcribing`), then with the
   * parts done of all as they finish.
   */
  onTranscribing?: ((progress?: PartsProgress) => Promise<void>) | undefined;
}

export type Transcriber = (
  found: CaptionlessVideo,
  request: TranscriptionRequest,
) => Promise<Video>;

/**
 * The transcriber over its collaborators.
 * The returned function throws HttpErrors: 422 (captions-disabled with no usable audio,
 * video-too-long-to-transcribe, transcription-too-large, transcription-rejected,
 * transcript-empty), 429 transcription-budget-exceeded, 502 transcription-error |
 * transcription-misconfigured and YouTube's own failures of the download;
 * TranscriptionPendingError when the run's time ends first (what was finished is kept).
 */
export function createTranscriber(deps: TranscriberDeps): Transcriber {
  const source = createAudioSource({
    youtube: deps.youtube,
    maxBytes: deps.limits.maxMb * 1_048_576,
    logger: deps.logger,
  });
  const run: TranscriberRun = { deps, transcribe: createTranscription(deps, source) };
  return (found, request) => transcribeVideo(run, found, request);
}

/** What a transcriber's operations share: its collaborators, and one transcription's run. */
export interface TranscriberRun {
  deps: TranscriberDeps;
  transcribe: ReturnType<typeof createTranscription>;
}

/**
 * A video's transcript: one kept already, or made under a claim of the video; while another run
 * holds the claim, waited for (the job says it is transcribing meanwhile).
 */
export async function transcribeVideo(
  run: TranscriberRun,
  found: CaptionlessVideo,
  request: TranscriptionRequest,
): Promise<Video> {
  const { deps } = run;
  const { store } = deps;
  checkLimits(found, deps.limits, deps.backend);
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
    if (claimed !== 'busy') return underClaim(run, found, request, claimed, owner);
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
}

/** Transcribes under a claim of the video; the claim is given back however it ends. */
export async function underClaim(
  { deps, transcribe }: TranscriberRun,
  found: CaptionlessVideo,
  request: TranscriptionRequest,
  claimed: Claimed,
  owner: string,
): Promise<Video> {
  const { store, logger } = deps;
  const { videoId } = request;
  const heartbeat = setInterval(() => {
    store.renew(videoId, owner).catch((error: unknown) => {
      logger.warn('could not renew a transcription claim', { error: String(error) });
    });
  }, deps.leaseMs / 3);
  heartbeat.unref();
  const state: RunState = {
    charge: claimed.charge,
    jobName: claimed.jobName,
    reached: false,
    partsDone: 0,
  };
  const startedAt = Date.now();
  try {
    const heard = await transcribe(found, request, owner, state);
    return await keepTranscript(deps, found, videoId, heard, state, startedAt, owner);
  } catch (error) {
    await endUnfinished(deps, request, state, owner, error);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * The video with the transcript of what was heard, kept for every later run and the claim given
 * back. @throws UnprocessableError (transcript-empty) when it holds no spoken text.
 */
async function keepTranscript(
  deps: TranscriberDeps,
  found: CaptionlessVideo,
  videoId: string,
  heard: PlacedHeard,
  state: RunState,
  startedAt: number,
  owner: string,
): Promise<Video> {
  const { store, logger } = deps;
  const transcript = transcriptOf(heard, found.offers[0]?.language);
  if (transcript.segments.length === 0) {
    throw new UnprocessableError(
      'transcript-empty',
      'Transcript empty',
      "The transcription of this video's audio holds no spoken text to summarise.",
    );
  }
  const video: Video = {
    metadata: found.metadata,
    transcript,
    client: (state.located?.offer ?? found.offers[0])?.client ?? 'unknown',
    source: 'transcription',
  };
  await deps.transcriptions.put(transcribedKey(videoId), video).catch((error: unknown) => {
    logger.warn('could not keep the transcription', { error: String(error) });
  });
  await store.release(videoId, owner, false).catch(() => undefined);
  logger.info('transcription done', {
    video_id: videoId,
    backend: deps.backend.name,
    language: transcript.language,
    timing: heard.timing,
    words: transcript.wordCount,
    elapsed_ms: Date.now() - startedAt,
  });
  return video;
}

/**
 * A run that ends without a transcript: its claim given back, and its minutes too unless the
 * transcription goes on without it (out of time, or stopped with a job started), the next run's
 * then: its kept parts, its job, its charge.
 */
async function endUnfinished(
  { store, logger }: TranscriberDeps,
  request: TranscriptionRequest,
  state: RunState,
  owner: string,
  error: unknown,
): Promise<void> {
  const goesOn =
    error instanceof TranscriptionPendingError ||
    (request.signal.aborted && state.jobName !== undefined);
  await store.release(request.videoId, owner, goesOn).catch((releaseError: unknown) => {
    logger.warn('could not give a transcription claim back', { error: String(releaseError) });
  });
  if (!goesOn && state.charge && refundable(error, request.signal, state.reached)) {
    await store.refund(state.charge).catch((refundError: unknown) => {
      logger.warn('could not give transcription minutes back', { error: String(refundError) });
    });
  }
}

/**
 * The 422s every request gets before anything is downloaded, claimed or charged: no audio it may
 * have, longer than TRANSCRIPTION_MAX_MINUTES or larger than TRANSCRIPTION_MAX_MB by the player,
 * or too large for one upload when it cannot be cut (no index).
 */
function checkLimits(
  found: CaptionlessVideo,
  limits: TranscriptionLimits,
  backend: TranscriptionBackend,
): void {
  if (found.offers.length === 0) throw audioUnavailable(found.problem, found.cipheredOnly);
  const seconds = found.metadata.duration_seconds;
  const minutes = seconds ? Math.ceil(seconds / 60) : null;
  if (minutes === null || minutes > limits.maxMinutes) {
    throw videoTooLongToTranscribe(minutes, limits.maxMinutes);
  }
  const sizes = found.offers.flatMap((offer) => (offer.bytes === undefined ? [] : [offer.bytes]));
  const smallest = sizes.length > 0 ? Math.min(...sizes) : undefined;
  if (smallest !== undefined && smallest > limits.maxMb * 1_048_576) {
    throw transcriptionTooLarge(smallest, { mb: limits.maxMb, variable: 'TRANSCRIPTION_MAX_MB' });
  }
  if (found.offers.every((offer) => !offer.indexRange)) tooLargeToUpload(backend, smallest);
}

/**
 * Whether minutes charged for a transcription that failed come back: when no audio reached the
 * backend, and otherwise as a summary's unit does (givesUnitBack): for failures of ours or of
 * the backend, and a run stopped before any result.
 */
function refundable(error: unknown, signal: AbortSignal, reached: boolean): boolean {
  if (!reached || signal.aborted) return true;
  return !(error instanceof HttpError) || givesUnitBack(error);
}
