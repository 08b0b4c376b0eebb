// What becomes of a video without usable captions, wherever a video is read (the summary worker,
// POST /ask, the MCP tools): its transcription when one was made while it is kept, else one made
// now where the work allows it (the worker, with a job's budget), else the problem, saying how
// transcription is had. Free of the backends and their SDKs: /ask and /mcp bundle this alone.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import { UnprocessableError } from '../errors';
import { type Cache, createCache, transcribedKey } from '../store/cache';
import type { CaptionlessVideo } from '../youtube/client';
import type { Video } from '../youtube/types';
import { UNDETERMINED } from './backend';
import { withTranscriptionHint } from './errors';
import type { Transcriber, TranscriptionRequest } from './transcriber';

/** What a look at a video does when it finds no captions. */
export type CaptionlessHandler = (
  found: CaptionlessVideo,
  request: TranscriptionRequest & { language?: string | undefined },
) => Promise<Video>;

/**
 * A transcription is kept at least this long, even with TRANSCRIPT_CACHE_TTL_SECONDS at 0: it
 * was paid for, and the runs waiting on it read it from there.
 */
const MIN_KEEP_SECONDS = 3_600;

/** Whether the deployment transcribes videos without captions at all. */
export function transcriptionConfigured(
  config: Pick<Config, 'TRANSCRIPTION_BACKEND' | 'TRANSCRIPTION_BASE_URL'>,
): boolean {
  return config.TRANSCRIPTION_BACKEND !== undefined || config.TRANSCRIPTION_BASE_URL !== undefined;
}

/** The transcriptions of `config`'s table, kept TRANSCRIPT_CACHE_TTL_SECONDS (an hour at least). */
export function transcriptionCache(config: Config, db: DynamoDBDocumentClient): Cache<Video> {
  const seconds = Math.max(MIN_KEEP_SECONDS, config.TRANSCRIPT_CACHE_TTL_SECONDS);
  return createCache<Video>(db, config.TABLE_NAME, seconds);
}

export interface CaptionlessDeps {
  transcriptions: Cache<Video>;
  /** Makes a transcription (the worker's); absent: kept ones only (POST /ask, MCP). */
  transcriber?: () => Promise<Transcriber>;
  /** Whether the deployment transcribes at all: what the problem advises. */
  configured: boolean;
}

/**
 * The handler of caption-less videos: a kept transcription, or a new one, in the language the
 * request asked for.
 * @throws the video's problem (with how to get a transcription) when there is none to be had,
 *   422 transcript-language-unavailable when the audio is in another language, and what the
 *   transcriber throws.
 */
export function captionlessHandler(deps: CaptionlessDeps): CaptionlessHandler {
  return async (found, request) => {
    const kept = await deps.transcriptions.get(transcribedKey(request.videoId));
    let video = kept;
    if (!video) {
      if (!deps.transcriber) throw withTranscriptionHint(found.problem, deps.configured);
      video = await (await deps.transcriber())(found, request);
    }
    return inLanguage(video, request.language);
  };
}

/**
 * The handler of the functions that read videos but have no time to transcribe (POST /ask, the
 * MCP tools): the transcriptions summaries made, and else the problem with what to do.
 */
export function keptTranscriptionsOf(
  config: Config,
  db: DynamoDBDocumentClient,
): CaptionlessHandler {
  return captionlessHandler({
    transcriptions: transcriptionCache(config, db),
    configured: transcriptionConfigured(config),
  });
}

/**
 * The transcription, when a request asked for its language (or named none). The audio of a
 * video is in one language: a request for another is refused as a missing caption track is.
 */
function inLanguage(video: Video, language: string | undefined): Video {
  const spoken = video.transcript.language;
  const primary = (tag: string) => tag.split('-')[0]?.toLowerCase();
  if (language === undefined || spoken === UNDETERMINED || primary(language) === primary(spoken)) {
    return video;
  }
  throw new UnprocessableError(
    'transcript-language-unavailable',
    'Transcript language unavailable',
    `This video has no captions, and its audio was transcribed in "${spoken}", not "${language}".`,
    { extensions: { available_languages: [spoken] } },
  );
}
