// How a video's transcript is acquired, step by step:
//   1. ask the player: each InnerTube client in turn (YOUTUBE_CLIENTS), with the
//      visitor data YouTube handed out, until one lists a caption track this
//      service can download;
//   2. choose the track: the requested language, manual before automatic, English;
//   3. fetch it through the controlled fetch, with its own short deadline, as the
//      client that listed it;
//   4. parse it (classic, srv3 or json3) and clean it.
// One client's failure is that client's, not the video's: the next client is asked when one is
// refused (HTTP 4xx), blocked (the bot check gets one retry with fresh visitor data first),
// times out, says the video cannot be played (often about the client: "The page needs to be
// reloaded", made-for-kids videos "not available on this app"), answers without a caption list
// or for another video, offers only tracks that need a PO token, or its track does not come.
// The video gets a verdict (unavailable, unplayable, age-restricted) when two clients agree on
// it, or every client when fewer are asked; answers that can only be about the video (no track
// in the requested language, a track with nothing spoken) end the search at once. Each client
// gets its share of the time left, so a stalled one cannot eat the others' turns. When every
// client fails, the most telling failure is reported; when InnerTube said nothing about the
// video (every client refused), the watch page is read for what it says.
// The steps with one client are in acquisition/ask-client.ts, the verdicts in
// acquisition/verdicts.ts, the failure of a search in acquisition/failure.ts.

import type { InnerTubeClient } from '../config/innertube-clients';
import type { HttpError } from '../errors';
import { askClient } from './acquisition/ask-client';
import type {
  AcquisitionContext,
  Attempt,
  AttemptOutcome,
  ClientResult,
} from './acquisition/attempt';
import { failureOf, mayTranscribe } from './acquisition/failure';
import { agreedVerdict } from './acquisition/verdicts';
import type { PlayerResponse } from './innertube/player';
import type { Transcript } from './types';

export interface Acquired {
  kind: 'captions';
  client: InnerTubeClient;
  player: PlayerResponse;
  transcript: Transcript;
  attempts: Attempt[];
}

/**
 * No caption track could be had, though clients answered about the video: no client listed one,
 * or every listed track was refused, empty or unusable. Its audio may still be transcribed.
 */
export interface Captionless {
  kind: 'captionless';
  /** What the search ends with when nothing is transcribed (422 captions-disabled, ...). */
  problem: HttpError;
  /** The answers of the clients that played the video, in the order asked. */
  players: { client: InnerTubeClient; player: PlayerResponse }[];
  attempts: Attempt[];
}

/** How asking ended for the clients whose audio a transcription may use. */
const AUDIO_OUTCOMES: ReadonlySet<AttemptOutcome> = new Set([
  'no-captions',
  'po-token',
  'track-refused',
  'empty',
]);

/** A client never gets less than this for its turn, however little time is left. */
const MIN_TURN_MS = 1_000;

/**
 * The transcript of `videoId` from the first client that can give one, or, when no caption
 * track can be had from clients that played the video, what they answered (its audio).
 * @throws HttpError: a verdict on the video (404 video-unavailable, 422 video-unplayable,
 * age-restricted, transcript-language-unavailable), 503 youtube-blocked, 502
 * youtube-bad-response, 503 youtube-unreachable, 504 youtube-timeout; and the problem of a
 * Captionless search when no client played the video.
 */
export async function acquireTranscript(
  context: AcquisitionContext,
  videoId: string,
  language?: string,
): Promise<Acquired | Captionless> {
  const results: ClientResult[] = [];
  const { clients } = context;
  for (const [index, client] of clients.entries()) {
    const turnEnds = turnEnd(context, clients.length - index);
    const ask = (retry: boolean) =>
      askClient(context, client, videoId, language, { endsAt: turnEnds, retry });
    let result = await ask(false);
    // The bot check is often the visitor's, not the address's: once more with fresh visitor
    // data (and a new proxy session where there is a proxy) before moving on.
    if (result.attempt.blockReason === 'bot-check') {
      context.onAttempt?.(result.attempt);
      context.visitor?.renew();
      context.newSession?.();
      result = await ask(true);
    }
    // A block is about the address: on a fresh connection (a new proxy exit) it may be gone.
    while (result.attempt.outcome === 'blocked' && context.freshConnection?.()) {
      context.onAttempt?.(result.attempt);
      result = await ask(true);
    }
    results.push(result);
    context.onAttempt?.(result.attempt);
    if (result.transcript && result.player) {
      const attempts = results.map((each) => each.attempt);
      return {
        kind: 'captions',
        client,
        player: result.player,
        transcript: result.transcript,
        attempts,
      };
    }
    // A track with nothing spoken is about the video: no other client's track says more.
    if (result.attempt.outcome === 'empty') break;
    const agreed = agreedVerdict(results, clients);
    if (agreed) throw agreed;
  }
  const problem = await failureOf(context, videoId, results);
  const players = results.flatMap(({ attempt, client, player }) =>
    player && AUDIO_OUTCOMES.has(attempt.outcome) ? [{ client, player }] : [],
  );
  if (players.length === 0 || !mayTranscribe(problem)) throw problem;
  return { kind: 'captionless', problem, players, attempts: results.map((r) => r.attempt) };
}

/** When a client's turn ends: an equal share of the time left among the clients still to ask. */
function turnEnd(context: AcquisitionContext, clientsLeft: number): number {
  if (context.deadlineAt === undefined) return Number.POSITIVE_INFINITY;
  const now = Date.now();
  return now + Math.max(MIN_TURN_MS, (context.deadlineAt - now) / clientsLeft);
}
