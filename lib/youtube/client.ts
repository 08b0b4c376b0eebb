// Fetches a video's transcript and metadata, and says precisely why when YouTube will not: the
// transcript from InnerTube's clients in turn, the metadata from the player response of the one
// that gave it (and the Data API's details); every request through the controlled fetch.
import type { Dispatcher } from 'undici';
import type { OperatorCredentials } from '../aws/operator-credentials';
import type { Config } from '../config';
import { type InnerTubeClient, parseClientOrder } from '../config/innertube-clients';
import { type HttpError, ValidationError } from '../errors';
import { requireShipped } from '../shipped';
import { acquireTranscript } from './acquisition';
import type { AcquisitionContext, Attempt } from './acquisition/attempt';
import { type AudioOffer, audioOf, durationOf } from './audio/audio';
import { type Download, downloadMedia } from './audio/media';
import { normaliseLanguage } from './captions/tracks';
import { DEFAULT_BLOCKED_RETRY_AFTER_SECONDS } from './errors';
import { createControlledFetch } from './fetch';
import { createVisitorSession } from './innertube/visitor';
import { dataApiDetails, metadataFromPlayer, withDataApiDetails } from './metadata';
import type { Video, VideoMetadata } from './types';
import { isVideoId } from './url';

export interface YouTubeClientOptions {
  /** Origin of every YouTube request (YOUTUBE_BASE_URL). Default https://www.youtube.com. */
  baseUrl?: string;
  /** HTTP(S) proxy for YouTube requests (YOUTUBE_PROXY_URL); credentials may be in the URL. */
  proxyUrl?: string;
  /** YouTube Data API v3 key (YOUTUBE_API_KEY): enables like/comment counts. */
  apiKey?: string;
  /** Origin of the Data API (YOUTUBE_API_BASE_URL). Default https://www.googleapis.com. */
  apiBaseUrl?: string;
  /** Deadline of each request (YOUTUBE_TIMEOUT_MS). Default 8000. */
  timeoutMs?: number;
  /** Deadline of a caption download (YOUTUBE_CAPTION_TIMEOUT_MS). Default 4000. */
  captionTimeoutMs?: number;
  /** Largest response accepted (YOUTUBE_MAX_RESPONSE_BYTES). Default 8 MiB. */
  maxResponseBytes?: number;
  /** Retry-After sent with youtube-blocked when YouTube gives none. Default 300. */
  blockedRetryAfterSeconds?: number;
  /** The InnerTube clients to ask, in order (YOUTUBE_CLIENTS). Default: DEFAULT_CLIENT_ORDER. */
  clients?: readonly InnerTubeClient[];
  /**
   * Retries on a fresh proxy connection after a block answer, per video (YOUTUBE_PROXY_RETRIES).
   * Default 2; only with a proxy.
   */
  proxyRetries?: number;
  /** Told about failures that do not fail the call (the optional Data API enrichment). */
  onWarning?: (message: string, error: unknown) => void;
}

export interface FetchVideoOptions {
  /** Caption language wanted (e.g. "en", "pt-BR"); by default the best track is chosen. */
  language?: string;
  /** The caller's deadline: aborting it ends every request at once (504 youtube-timeout). */
  signal?: AbortSignal;
  /**
   * When the caller's deadline is (epoch ms): each InnerTube client gets its share of the time
   * left, so that a stalled one cannot take the others' turns.
   */
  deadlineAt?: number;
  /** Told about every InnerTube client asked, as it is answered (`npm run canary`). */
  onAttempt?: (attempt: Attempt) => void;
}

/** A video that plays but has no caption track to be had: what a transcription starts from. */
export interface CaptionlessVideo {
  kind: 'captionless';
  metadata: VideoMetadata;
  /** The answer when nothing is transcribed (422 captions-disabled, transcript-empty...). */
  problem: HttpError;
  /** Each playing client's smallest audio format with a direct URL, in the order asked. */
  offers: AudioOffer[];
  /** Audio formats were offered, but only behind a signatureCipher (none downloadable). */
  cipheredOnly: boolean;
}

/** What a look at a video found: its transcript, or only its audio. */
export type VideoLookup = { kind: 'video'; video: Video } | CaptionlessVideo;

export interface YouTubeClient {
  /**
   * Transcript and metadata of one video.
   * @throws HttpError: 422 validation-error, 404 video-unavailable, 422 captions-disabled |
   * transcript-language-unavailable | age-restricted | video-unplayable | transcript-empty,
   * 503 youtube-blocked | youtube-unreachable, 502 youtube-bad-response, 504 youtube-timeout.
   */
  fetchVideo(videoId: string, options?: FetchVideoOptions): Promise<Video>;
  /**
   * As fetchVideo, but a video without usable captions answers its audio offers instead of
   * its problem. @throws what fetchVideo throws, but for that.
   */
  lookUpVideo(videoId: string, options?: FetchVideoOptions): Promise<VideoLookup>;
  /**
   * The audio of an offer, in ranges of at most 10 MB, through the proxy.
   * @throws what downloadMedia throws (ForeignMediaError without a request).
   */
  downloadAudio(
    offer: AudioOffer,
    download: Download & { signal?: AbortSignal },
  ): Promise<Uint8Array>;
  /** Closes pooled proxy connections (tests, local host shutdown). */
  close(): Promise<void>;
}

/**
 * Creates a client; the proxy agent (if any) is made here and shared by every call until a block
 * answer makes a call switch to a fresh one.
 * @throws InvalidArgumentError from undici when `proxyUrl` is not a usable proxy URL.
 */
export function createYouTubeClient(options: YouTubeClientOptions = {}): YouTubeClient {
  const baseUrl = options.baseUrl ?? 'https://www.youtube.com';
  const timeoutMs = options.timeoutMs ?? 8_000;
  const state: ClientState = {
    options,
    baseUrl,
    apiBaseUrl: options.apiBaseUrl ?? 'https://www.googleapis.com',
    timeoutMs,
    captionTimeoutMs: Math.min(timeoutMs, options.captionTimeoutMs ?? 4_000),
    // One visitor for the client's life (a warm Lambda, the local host), renewed after a bot check.
    visitor: createVisitorSession(),
    maxResponseBytes: options.maxResponseBytes ?? 8_388_608,
    retryAfter: options.blockedRetryAfterSeconds ?? DEFAULT_BLOCKED_RETRY_AFTER_SECONDS,
    clients: options.clients ?? parseClientOrder([]),
    proxyRetries: options.proxyRetries ?? 2,
    proxy: newProxyAgent(options),
  };

  // Tests serve the media from YOUTUBE_BASE_URL's origin; YouTube's own origin serves none.
  const mediaTestOrigin = new URL(baseUrl).origin;
  const testOrigin = mediaTestOrigin === 'https://www.youtube.com' ? undefined : mediaTestOrigin;

  return {
    lookUpVideo: (videoId, call) => lookUpVideo(state, videoId, call),
    async fetchVideo(videoId, call) {
      const found = await lookUpVideo(state, videoId, call);
      if (found.kind === 'captionless') throw found.problem;
      return found.video;
    },
    downloadAudio(offer, { signal, ...download }) {
      return downloadMedia(offer.url, download, {
        ...(testOrigin ? { testOrigin } : {}),
        ...(state.proxy ? { dispatcher: state.proxy } : {}),
        ...(signal ? { signal } : {}),
      });
    },
    async close() {
      await state.proxy?.close();
    },
  };
}

/** A client's settings, its defaults filled in, and its proxy connection, which calls renew. */
interface ClientState {
  options: YouTubeClientOptions;
  baseUrl: string;
  apiBaseUrl: string;
  timeoutMs: number;
  captionTimeoutMs: number;
  visitor: ReturnType<typeof createVisitorSession>;
  maxResponseBytes: number;
  retryAfter: number;
  clients: readonly InnerTubeClient[];
  proxyRetries: number;
  proxy: Dispatcher | undefined;
}

const newProxyAgent = (options: YouTubeClientOptions): Dispatcher | undefined =>
  options.proxyUrl
    ? new (requireShipped<typeof import('undici')>('undici').ProxyAgent)({
        uri: options.proxyUrl,
      })
    : undefined;

/** A new connection to the proxy: a rotating proxy gives it a new exit address. */
function rotateProxy(state: ClientState): void {
  const old = state.proxy;
  state.proxy = newProxyAgent(state.options);
  // In-flight requests on the old connection finish first.
  void old?.close().catch(() => undefined);
}

/** YouTubeClient.lookUpVideo over the client's state. */
async function lookUpVideo(
  state: ClientState,
  videoId: string,
  call: FetchVideoOptions = {},
): Promise<VideoLookup> {
  const { options, timeoutMs, retryAfter } = state;
  if (!isVideoId(videoId)) {
    throw new ValidationError([
      { field: 'video_url', message: 'Use an 11-character YouTube video ID.' },
    ]);
  }
  const language = call.language === undefined ? undefined : normaliseLanguage(call.language);
  // One controller per call, so the optional Data API request never outlives a failure.
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(call.signal?.reason);
  if (call.signal?.aborted) forwardAbort();
  call.signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    const connect = () =>
      createControlledFetch({
        origin: state.baseUrl,
        dispatcher: state.proxy,
        timeoutMs,
        maxResponseBytes: state.maxResponseBytes,
        signal: controller.signal,
        blockedRetryAfterSeconds: retryAfter,
      });
    let youtube = connect();
    let retriesLeft = options.proxyUrl ? state.proxyRetries : 0;
    const context: AcquisitionContext = {
      clients: state.clients,
      fetch: (input, init) => youtube.fetch(input, init),
      retryAfterSeconds: retryAfter,
      playerTimeoutMs: timeoutMs,
      captionTimeoutMs: state.captionTimeoutMs,
      ...(call.deadlineAt === undefined ? {} : { deadlineAt: call.deadlineAt }),
      signal: controller.signal,
      visitor: state.visitor,
      usingProxy: options.proxyUrl !== undefined,
      freshConnection: () => {
        if (retriesLeft === 0 || controller.signal.aborted) return false;
        retriesLeft--;
        rotateProxy(state);
        youtube = connect();
        return true;
      },
      newSession: () => {
        if (!options.proxyUrl) return;
        rotateProxy(state);
        youtube = connect();
      },
      onAttempt: call.onAttempt,
    };
    const enrichment = options.apiKey
      ? dataApiDetails(
          { ...state, onWarning: options.onWarning },
          videoId,
          options.apiKey,
          controller.signal,
        )
      : Promise.resolve(undefined);
    const acquired = await acquireTranscript(context, videoId, language);
    return lookupOf(acquired, videoId, await enrichment);
  } finally {
    call.signal?.removeEventListener('abort', forwardAbort);
    controller.abort();
  }
}

/** What a lookup found: the video with its transcript, or the audio a captionless one offers. */
function lookupOf(
  acquired: Awaited<ReturnType<typeof acquireTranscript>>,
  videoId: string,
  details: Awaited<ReturnType<typeof dataApiDetails>>,
): VideoLookup {
  const player = acquired.kind === 'captions' ? acquired.player : acquired.players[0]?.player;
  const metadata = withDataApiDetails(metadataFromPlayer(player ?? {}, videoId), details);
  if (acquired.kind === 'captions') {
    const { transcript, client } = acquired;
    return {
      kind: 'video',
      video: { metadata, transcript, client: client.name, source: 'captions' },
    };
  }
  const audio = acquired.players.map(({ client, player }) =>
    audioOf(player, client, durationOf(player)),
  );
  return {
    kind: 'captionless',
    metadata,
    problem: acquired.problem,
    offers: audio.flatMap((summary) => (summary.offer ? [summary.offer] : [])),
    cipheredOnly: audio.some((summary) => summary.ciphered > 0),
  };
}

/**
 * A client configured from the environment (YOUTUBE_* variables) and the operator's
 * credentials (operatorCredentialsFrom); create it once per process.
 * @throws InvalidArgumentError from undici when the proxy URL is unusable.
 */
export function youTubeClientFromConfig(
  config: Config,
  credentials: Pick<OperatorCredentials, 'youtubeProxyUrl' | 'youtubeApiKey'>,
  extra: Pick<YouTubeClientOptions, 'onWarning' | 'blockedRetryAfterSeconds'> = {},
): YouTubeClient {
  return createYouTubeClient({
    baseUrl: config.YOUTUBE_BASE_URL,
    proxyUrl: credentials.youtubeProxyUrl,
    apiKey: credentials.youtubeApiKey,
    apiBaseUrl: config.YOUTUBE_API_BASE_URL,
    timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    captionTimeoutMs: config.YOUTUBE_CAPTION_TIMEOUT_MS,
    maxResponseBytes: config.YOUTUBE_MAX_RESPONSE_BYTES,
    clients: config.YOUTUBE_CLIENTS,
    proxyRetries: config.YOUTUBE_PROXY_RETRIES,
    ...extra,
  });
}
