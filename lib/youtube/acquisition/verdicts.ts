// Verdicts on the video: which clients' refusals count as votes, when two agree, and which
// reason says the most.

import type { ClientName, InnerTubeClient } from '../../config/innertube-clients';
import type { HttpError } from '../../errors';
import type { ClientResult } from './attempt';

/**
 * Refusals that are about the client or the session, never votes on the video
 * (docs/youtube-clients.md, "Refusals that were about the client").
 */
const CLIENT_REFUSALS =
  /page needs to be reloaded|not available on this app|watch on the latest version/i;

/**
 * Who votes: ANDROID_VR and VISIONOS refuse made-for-kids videos alike (yt-dlp treats them as
 * one case), so their word counts once.
 */
const VOTER: Record<ClientName, string> = {
  ANDROID: 'android',
  IOS: 'ios',
  VISIONOS: 'headset',
  ANDROID_VR: 'headset',
};

/** The verdicts of a search so far, each with its voter (none for refusals of the client). */
export function verdictsOf(results: readonly ClientResult[]) {
  return results.flatMap((result) => {
    const { error, attempt } = result;
    if (attempt.outcome !== 'verdict' || !error) return [];
    const said = attempt.reason ?? String(error.extensions.youtube_reason ?? '');
    return [{ error, voter: CLIENT_REFUSALS.test(said) ? undefined : VOTER[attempt.client] }];
  });
}

/**
 * A verdict on the video two clients agree on (or every client, when fewer than two are
 * asked), with the most specific reason any client gave; undefined otherwise.
 */
export function agreedVerdict(
  results: readonly ClientResult[],
  clients: readonly InnerTubeClient[],
): HttpError | undefined {
  const verdicts = verdictsOf(results);
  const needed = Math.min(2, new Set(clients.map((client) => VOTER[client.name])).size);
  for (const type of new Set(verdicts.map(({ error }) => error.type))) {
    const voters = new Set(
      verdicts.flatMap(({ error, voter }) => (error.type === type && voter ? [voter] : [])),
    );
    if (voters.size >= needed) return mostSpecific(verdicts.map(({ error }) => error));
  }
  return undefined;
}

/**
 * How much a reason says, most first: a named cause (private, removed, terminated, Community
 * Guidelines), members-only, age, a live event or premiere to come, a region, a generic
 * "unavailable", anything else (the order of docs/youtube-clients.md).
 */
const SPECIFICITY: readonly RegExp[] = [
  /private|removed|terminated|community guidelines|copyright/i,
  /members|join this channel/i,
  /\bage\b|inappropriate|confirm your age/i,
  /live event|premiere|begin in/i,
  /country|region/i,
  /unavailable|not available/i,
];

/** The verdict whose reason says the most, ties broken by the longer reason. */
export function mostSpecific(verdicts: readonly HttpError[]): HttpError {
  const reasonOf = (error: HttpError) => String(error.extensions.youtube_reason ?? '');
  const rank = (error: HttpError) => {
    const index = SPECIFICITY.findIndex((pattern) => pattern.test(reasonOf(error)));
    return index === -1 ? SPECIFICITY.length : index;
  };
  return verdicts.reduce((best, error) => {
    const byRank = rank(error) - rank(best);
    const longer = reasonOf(error).length > reasonOf(best).length;
    return byRank < 0 || (byRank === 0 && longer) ? error : best;
  });
}
