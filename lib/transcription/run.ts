// One transcription under a claim of its video (the transcriber holds the claim): the audio
// located and its real length checked and charged, then transcribed by the backend, an upload
// backend's in parts or whole when the format has no index, a job backend's whole.
import { bound } from '../util/bound';
import type { MediaIndex } from '../youtube/audio/segments';
import type { CaptionlessVideo } from '../youtube/client';
import type { createAudioSource, Fetch, LocatedAudio } from './audio-source';
import type { JobBackend, TranscriptionBackend, UploadBackend, UploadCall } from './backend';
import {
  checkUploadSize,
  TranscriptionPendingError,
  transcriptionError,
  transcriptionTooLarge,
  videoTooLongToTranscribe,
} from './errors';
import { joinHeard, type PlacedHeard, placeHeard } from './heard';
import { transcribeInParts } from './in-parts';
import { PartTooLargeError, planParts } from './parts';
import type { MinutesCharge } from './store';
import type { TranscriberDeps, TranscriptionLimits, TranscriptionRequest } from './transcriber';

/** Kept before the run's deadline: time to give the claim back and hand the run over. */
export const HAND_OVER_MARGIN_MS = 5_000;

/** What a run under a claim knows as it goes: what it charged, started, downloaded, sent. */
export interface RunState {
  /** Parts finished in this run (not kept by an earlier one). */
  partsDone: number;
  charge: MinutesCharge | undefined;
  jobName: string | undefined;
  located?: LocatedAudio;
  /** Whether any audio reached the backend (minutes are kept only then). */
  reached: boolean;
}

/** What a transcription's steps share: the transcriber's dependencies and the audio source. */
export interface TranscriptionRunDeps extends TranscriberDeps {
  source: ReturnType<typeof createAudioSource>;
}

/** A run under the claim of a video: what it transcribes, for whom, and its owner's id. */
interface ClaimedRun {
  found: CaptionlessVideo;
  request: TranscriptionRequest;
  owner: string;
}

/**
 * The audio's length checked and charged (once per transcription: a later run finds the
 * charge on the claim), the job told it is transcribing.
 */
export async function begin(
  { backend, store, limits, logger }: TranscriptionRunDeps,
  run: ClaimedRun,
  state: RunState,
  located: LocatedAudio | undefined,
) {
  const { found, request } = run;
  const length = located
    ? lengthOf(found, located, limits)
    : { durationMs: (found.metadata.duration_seconds ?? 0) * 1000, minutes: 0, known: false };
  if (!state.charge && request.payer) {
    state.charge = await store.charge(request.payer, length.minutes);
    await store.remember(request.videoId, run.owner, { charge: state.charge });
  }
  await request.onTranscribing?.();
  logger.info('transcription started', {
    video_id: request.videoId,
    backend: backend.name,
    minutes: length.minutes,
    length_from: length.known ? 'index' : 'player',
    resumed: state.jobName !== undefined,
  });
  return length;
}

/**
 * A job backend's transcription of the whole audio. A job an earlier run started is picked up
 * by its name: its audio is neither located nor downloaded again unless the job is lost.
 */
export async function asJob(
  deps: TranscriptionRunDeps,
  job: JobBackend,
  run: ClaimedRun,
  state: RunState,
) {
  const { source, store } = deps;
  const { found, request } = run;
  const fetch = { videoId: request.videoId, signal: request.signal };
  const locate = async () => {
    state.located ??= await source.locate(found, fetch);
    return state.located;
  };
  const length = await begin(deps, run, state, state.jobName ? undefined : await locate());
  const language = (state.located?.offer ?? found.offers[0])?.language;
  const heard = await job.transcribe(
    async () => {
      const located = await locate();
      state.reached = true;
      return source.whole(located, fetch);
    },
    {
      signal: request.signal,
      handOverAt: request.deadlineAt - HAND_OVER_MARGIN_MS,
      ...(language ? { language } : {}),
      ...(state.jobName ? { resume: state.jobName } : {}),
      started: async (name) => {
        state.jobName = name;
        await store.remember(request.videoId, run.owner, { jobName: name });
      },
    },
  );
  return placeHeard(heard, length.durationMs, 0);
}

/** An upload backend's transcription: in parts by the index, else whole in one upload. */
export async function byUpload(
  deps: TranscriptionRunDeps,
  backend: UploadBackend,
  run: { request: TranscriptionRequest; fetch: Fetch; located: LocatedAudio },
  state: RunState,
  call: UploadCall,
  durationMs: number,
): Promise<PlacedHeard> {
  const { source, limits, logger } = deps;
  const { request, fetch, located } = run;
  if (!located.indexed) {
    // No index: one upload of the whole audio (the player's length, rounded to the second).
    const file = await source.whole(located, fetch);
    tooLargeToUpload(backend, file.bytes.byteLength);
    file.durationMs = durationMs + 1_000;
    state.reached = true;
    return placeHeard(await backend.transcribeFile(file, call), file.durationMs, 0);
  }
  const parts = partsOf(located.indexed.index, limits, backend);
  let before: number | undefined;
  const heard = await transcribeInParts(
    { backend, source, checkpoints: deps.checkpoints, concurrency: limits.concurrency, logger },
    {
      located: { ...located, indexed: located.indexed },
      parts,
      fetch,
      call,
      onUpload: () => {
        state.reached = true;
      },
      onProgress: async (progress) => {
        before ??= progress.partsDone;
        state.partsDone = progress.partsDone - before;
        await request.onTranscribing?.(progress);
      },
    },
  );
  return joinHeard(heard);
}

/** One transcription under a claim: a job backend's whole, an upload backend's by upload. */
export async function transcribeUnderClaim(
  deps: TranscriptionRunDeps,
  found: CaptionlessVideo,
  request: TranscriptionRequest,
  owner: string,
  state: RunState,
): Promise<PlacedHeard> {
  const { backend, source } = deps;
  if (backend.kind === 'job') return asJob(deps, backend, { found, request, owner }, state);
  // An upload backend's requests stop at the hand-over time.
  const handOver = handOverOf(request, state);
  const fetch = {
    videoId: request.videoId,
    signal: handOver.signal,
    wholeLimitBytes: backend.uploadLimitBytes,
  };
  try {
    const located = await source.locate(found, fetch);
    state.located = located;
    const length = await begin(deps, { found, request, owner }, state, located);
    // The backend's own give-up time comes after the hand-over's: the run hands over first.
    const call = {
      signal: fetch.signal,
      handOverAt: request.deadlineAt - HAND_OVER_MARGIN_MS + 1_000,
      ...(located.offer.language ? { language: located.offer.language } : {}),
    };
    return await byUpload(
      deps,
      backend,
      { request, fetch, located },
      state,
      call,
      length.durationMs,
    );
  } catch (error) {
    // The hand-over's abort surfaces as whatever the step under way made of it.
    throw handOver.signal.aborted && !request.signal.aborted ? handOver.signal.reason : error;
  } finally {
    handOver.clear();
  }
}

/**
 * The steps of one transcription under a claim: the audio located and its real length checked
 * and charged, then transcribed by the backend, in parts or whole.
 */
export function createTranscription(
  deps: TranscriberDeps,
  source: ReturnType<typeof createAudioSource>,
) {
  return bound({ ...deps, source }, transcribeUnderClaim);
}

/**
 * The audio's real length (its index's; else the player's) and its minutes.
 * @throws 422 video-too-long-to-transcribe past TRANSCRIPTION_MAX_MINUTES, 422
 *   transcription-too-large past TRANSCRIPTION_MAX_MB.
 */
function lengthOf(found: CaptionlessVideo, located: LocatedAudio, limits: TranscriptionLimits) {
  const index = located.indexed?.index;
  const durationMs = index?.durationMs ?? (found.metadata.duration_seconds ?? 0) * 1000;
  const minutes = Math.max(1, Math.ceil(durationMs / 60_000));
  if (minutes > limits.maxMinutes) throw videoTooLongToTranscribe(minutes, limits.maxMinutes);
  const bytes = index?.segments.at(-1)?.bytes.end ?? located.whole?.bytes.byteLength;
  if (bytes !== undefined && bytes > limits.maxMb * 1_048_576) {
    throw transcriptionTooLarge(bytes, { mb: limits.maxMb, variable: 'TRANSCRIPTION_MAX_MB' });
  }
  return { durationMs, minutes, known: index !== undefined };
}

/**
 * The parts an upload backend takes the audio in (TRANSCRIPTION_PART_MB, capped at its upload
 * limit, and TRANSCRIPTION_PART_MINUTES).
 * @throws 422 transcription-too-large when one segment alone is larger than a part may be.
 */
function partsOf(index: MediaIndex, limits: TranscriptionLimits, backend: UploadBackend) {
  const maxBytes = Math.min(limits.partMb * 1_048_576, backend.uploadLimitBytes);
  try {
    return planParts(index, { maxBytes, maxMs: limits.partMinutes * 60_000 });
  } catch (error) {
    if (!(error instanceof PartTooLargeError)) throw error;
    throw transcriptionTooLarge(error.bytes, {
      mb: Math.floor(maxBytes / 1_048_576),
      variable: 'TRANSCRIPTION_MAX_UPLOAD_MB',
    });
  }
}

/**
 * The run's stop at its hand-over time (HAND_OVER_MARGIN_MS before its deadline): with parts
 * finished in this run, the next delivery goes on from the parts kept (TranscriptionPendingError);
 * with none, the backend did not answer in time (a 502, as it always was).
 */
function handOverOf(request: TranscriptionRequest, state: RunState) {
  const controller = new AbortController();
  const timer = setTimeout(
    () => {
      controller.abort(
        state.partsDone > 0
          ? new TranscriptionPendingError(`the run's time ends (${request.videoId})`)
          : transcriptionError('the transcription service did not answer in time'),
      );
    },
    Math.max(0, request.deadlineAt - HAND_OVER_MARGIN_MS - Date.now()),
  );
  return {
    signal: AbortSignal.any([request.signal, controller.signal]),
    clear: () => clearTimeout(timer),
  };
}

/** @throws 422 transcription-too-large when an upload backend cannot take `bytes` at once. */
export function tooLargeToUpload(backend: TranscriptionBackend, bytes: number | undefined): void {
  if (backend.kind === 'upload') checkUploadSize(bytes, backend.uploadLimitBytes);
}
