// How a search in which no client gave a transcript ends: the most telling failure, a block as
// the client is told it, and whether the audio may still be transcribed.
import type { HttpError } from '../../errors';
import {
  type BlockReason,
  captionsDisabled,
  clientsRefused,
  youTubeBadResponse,
  youTubeBlocked,
  youTubeTimeout,
} from '../errors';
import { watchPageVerdict } from '../innertube/watch-page';
import type { AcquisitionContext, Attempt, ClientResult } from './attempt';
import { mostSpecific, verdictsOf } from './verdicts';

/**
 * Whether a search that ended with `problem` lacked only captions: not a verdict on the video,
 * nor a block of this address (a PO token guards caption tracks, not the audio).
 */
export function mayTranscribe(problem: HttpError): boolean {
  if (problem.type === 'youtube-blocked') {
    return problem.extensions.block_reason === 'po-token-required';
  }
  return ['captions-disabled', 'transcript-empty', 'youtube-bad-response'].includes(problem.type);
}

/** The most telling failure of a search in which no client gave a transcript. */
export async function failureOf(
  context: AcquisitionContext,
  videoId: string,
  results: readonly ClientResult[],
): Promise<HttpError> {
  const attempts = results.map((result) => result.attempt);
  // A track with nothing spoken ended the search: that is what the video has.
  const empty = results.find((result) => result.attempt.outcome === 'empty');
  if (empty?.error) return empty.error;
  const blocked = results.find((result) => result.attempt.outcome === 'blocked');
  if (blocked?.error) return honestBlock(context, blocked.error, attempts);
  if (attempts.some((attempt) => attempt.outcome === 'po-token')) {
    return youTubeBlocked('po-token-required', context.retryAfterSeconds);
  }
  // A verdict no other client contradicted with a transcript, though none agreed with it.
  const verdicts = verdictsOf(results);
  if (verdicts.length > 0) return mostSpecific(verdicts.map(({ error }) => error));
  const other = attempts.find((attempt) => attempt.outcome === 'other-video');
  if (other) {
    return youTubeBadResponse(
      `YouTube answered about another video (${other.detail}) instead of ${videoId}, which ` +
        'was not used (YouTube does this to addresses it distrusts)',
    );
  }
  if (attempts.some((attempt) => attempt.outcome === 'no-captions')) return captionsDisabled();
  const timedOut = results.find((result) => result.attempt.outcome === 'timeout');
  if (timedOut) return timedOut.error ?? youTubeTimeout();
  const failed = results.find((result) => result.attempt.outcome === 'failed');
  if (failed?.error) return failed.error;
  // Every client refused: InnerTube said nothing about the video, so ask the watch page.
  if (attempts.every((attempt) => attempt.outcome === 'refused')) {
    const verdict = await watchPageVerdict(context, videoId);
    if (verdict) return verdict;
  }
  return clientsRefused(
    attempts.map((attempt) =>
      attempt.outcome === 'track-refused'
        ? `${attempt.client} ${attempt.version}: its caption track answered HTTP ${attempt.detail}`
        : `${attempt.client} ${attempt.version}: HTTP ${attempt.status}`,
    ),
  );
}

/**
 * A block as the client is told it: with YouTube's own Retry-After when it sent one, and a
 * proxy suggested only when retrying from this address (a second try with fresh visitor data,
 * fresh proxy connections) did not help.
 */
function honestBlock(
  context: AcquisitionContext,
  error: HttpError,
  attempts: readonly Attempt[],
): HttpError {
  const reason = error.extensions.block_reason as BlockReason;
  const retried = attempts.some((attempt) => attempt.retry);
  const retryAfter = Number(error.headers['Retry-After'] ?? context.retryAfterSeconds);
  return youTubeBlocked(reason, retryAfter, error, { retried, usingProxy: context.usingProxy });
}
