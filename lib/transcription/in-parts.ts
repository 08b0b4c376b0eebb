// A long audio transcribed part by part by an upload backend: each part (the init
// segment and whole media segments, at most TRANSCRIPTION_PART_MB and TRANSCRIPTION_PART_MINUTES)
// is downloaded, uploaded once and its segments placed at the part's start; up to
// TRANSCRIPTION_CONCURRENCY at a time. Every finished part is kept (a checkpoint, by video,
// format and place): a run that dies, or hands its work over when its time ends, is followed by
// one that transcribes only the parts not kept yet.
import type { Logger } from '../logger';
import type { Cache } from '../store/cache';
import type { AudioSource, Fetch, LocatedAudio } from './audio-source';
import type { AudioFile, UploadBackend, UploadCall } from './backend';
import { type PlacedHeard, placeHeard } from './heard';
import { type AudioPart, partFile } from './parts';

/** Where the parts stand: finished (kept) of all. */
export interface PartsProgress {
  partsDone: number;
  partsTotal: number;
}

export interface InPartsDeps {
  backend: UploadBackend;
  source: AudioSource;
  /** Finished parts, by partKey. */
  checkpoints: Cache<PlacedHeard>;
  /** TRANSCRIPTION_CONCURRENCY. */
  concurrency: number;
  logger: Logger;
}

export interface InPartsRun {
  located: LocatedAudio & { indexed: NonNullable<LocatedAudio['indexed']> };
  parts: readonly AudioPart[];
  fetch: Fetch;
  call: UploadCall;
  /** Told before the first upload (the audio reaches the backend from then on). */
  onUpload(): void;
  /** Told once the kept parts are known, and after each part. */
  onProgress(progress: PartsProgress): Promise<void>;
}

/**
 * The key of a part's checkpoint: the video, its format (itag and length, so that another format
 * or a re-encoded upload never mixes in) and the part's place.
 */
export function partKey(videoId: string, located: InPartsRun['located'], part: AudioPart): string {
  const { offer, indexed } = located;
  const format = `${offer.itag}.${indexed.index.durationMs}.${indexed.index.segments.length}`;
  return `TRANSCRIBED_PART#v1#${videoId}#${format}#${part.startMs}-${part.endMs}`;
}

/**
 * Every part's transcript, in order (kept ones read back, the others made).
 * @throws the first failure of a part (what the source and the backend throw), once the parts
 *   under way when it came have ended (what they finished is kept).
 */
export async function transcribeInParts(deps: InPartsDeps, run: InPartsRun) {
  const { parts, fetch } = run;
  const heard: (PlacedHeard | undefined)[] = await Promise.all(
    parts.map((part) => deps.checkpoints.get(partKey(fetch.videoId, run.located, part))),
  );
  let done = heard.filter(Boolean).length;
  const todo = parts.filter((_, i) => heard[i] === undefined);
  deps.logger.info('transcription in parts', {
    video_id: fetch.videoId,
    parts: parts.length,
    kept: done,
    concurrency: deps.concurrency,
  });
  await run.onProgress({ partsDone: done, partsTotal: parts.length });
  let failure: { error: unknown } | undefined;
  let next = 0;
  const lane = async () => {
    while (failure === undefined && next < todo.length) {
      const part = todo[next++] as AudioPart;
      try {
        heard[part.number - 1] = await transcribePart(deps, run, part);
        done++;
        await run.onProgress({ partsDone: done, partsTotal: parts.length });
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency, todo.length) }, lane));
  if (failure) throw failure.error;
  return heard as PlacedHeard[];
}

/** One part: downloaded, uploaded, placed, kept. */
async function transcribePart(deps: InPartsDeps, run: InPartsRun, part: AudioPart) {
  const { located, fetch } = run;
  const { index, head } = located.indexed;
  const startedAt = Date.now();
  const media = await deps.source.range(located, fetch, part.bytes);
  const file: AudioFile = {
    bytes: partFile(index, head.subarray(index.init.start, index.init.end), media),
    mimeType: located.offer.mimeType,
    videoId: fetch.videoId,
    durationMs: part.endMs - part.startMs,
    part: { number: part.number, count: part.count },
  };
  run.onUpload();
  const answer = await deps.backend.transcribeFile(file, run.call);
  const placed = placeHeard(answer, file.durationMs, part.startMs);
  await deps.checkpoints
    .put(partKey(fetch.videoId, located, part), placed)
    .catch((error: unknown) => {
      // The transcription goes on; a run after this one would only do this part again.
      deps.logger.warn('could not keep a transcribed part', { error: String(error) });
    });
  deps.logger.info('part transcribed', {
    video_id: fetch.videoId,
    part: part.number,
    parts: part.count,
    bytes: file.bytes.byteLength,
    segments: placed.segments.length,
    dropped: answer.segments.length - placed.segments.length,
    elapsed_ms: Date.now() - startedAt,
  });
  return placed;
}
