// What the search for a transcript records: the attempt of each client asked, the context the
// search runs in (clients, fetch, deadlines, visitor data), and one client's result.

import type { ClientName, InnerTubeClient } from '../../config/innertube-clients';
import type { HttpError } from '../../errors';
import type { AudioSummary } from '../audio/audio';
import type { BlockReason } from '../errors';
import type { YouTubeRequestInit } from '../fetch';
import type { PlayerResponse } from '../innertube/player';
import type { VisitorSession } from '../innertube/visitor';
import type { Transcript } from '../types';

/** How asking one client ended. */
export type AttemptOutcome =
  | 'transcript'
  | 'refused'
  | 'blocked'
  | 'verdict'
  | 'no-captions'
  | 'other-video'
  | 'po-token'
  | 'track-refused'
  | 'timeout'
  | 'failed'
  /** A caption track with nothing spoken in it (only "[Music]" cues). */
  | 'empty';

/** One client asked for one video: what it answered (the canary prints these). */
export interface Attempt {
  client: ClientName;
  version: string;
  /** HTTP status of the player request; undefined when it failed before an answer. */
  status: number | undefined;
  outcome: AttemptOutcome;
  /** `playabilityStatus.status` and its reason, when the player answered one. */
  playability?: string;
  reason?: string;
  /** Caption tracks listed, and how many of them need a PO token. */
  tracks: number;
  poTokenTracks: number;
  blockReason?: BlockReason;
  /** The other video's ID, the caption track's HTTP status, or what failed. */
  detail?: string;
  /** Bytes of the caption track downloaded. */
  captionBytes?: number;
  /** Whether visitor data was sent with the player request. */
  visitorData: boolean;
  /** The second try of a client after a bot check (fresh visitor data). */
  retry: boolean;
  /** Words of the transcript, when this attempt got one. */
  words?: number;
  /** The audio this client was offered, when its answer was about the video. */
  audio?: AudioSummary;
  elapsedMs: number;
}

export interface AcquisitionContext {
  /** The clients to ask, in order. */
  clients: readonly InnerTubeClient[];
  /** The controlled fetch of the current connection. */
  fetch: (input: string, init?: YouTubeRequestInit) => Promise<Response>;
  retryAfterSeconds: number;
  /** Deadlines of one player request and one caption download (YOUTUBE_*_TIMEOUT_MS). */
  playerTimeoutMs: number;
  captionTimeoutMs: number;
  /** When the whole search must be over (epoch ms): each client gets its share of what is left. */
  deadlineAt?: number;
  /** The caller's deadline: when it fires, nothing else is tried. */
  signal?: AbortSignal;
  /** The visitor data sent with player requests, kept per process. */
  visitor?: VisitorSession;
  /** Whether the requests go through YOUTUBE_PROXY_URL (what a block's problem advises). */
  usingProxy: boolean;
  /**
   * Switches to a fresh connection after a block answer (a rotating proxy hands out a new exit
   * address per connection); false when no further retry is allowed.
   */
  freshConnection?: () => boolean;
  /** A new proxy session for the bot check's own retry, outside YOUTUBE_PROXY_RETRIES. */
  newSession?: () => void;
  /** Told about every attempt as it ends. */
  onAttempt?: (attempt: Attempt) => void;
}

export interface ClientResult {
  attempt: Attempt;
  client: InnerTubeClient;
  /** The answer, when it was about the video (kept for its audio when no track comes). */
  player?: PlayerResponse;
  transcript?: Transcript;
  /** The error this client's answer stands for (a verdict, a block, a timeout...). */
  error?: HttpError;
}
