// Every way fetching a video can fail, as the problem types clients see. Kept in one file so
// docs/youtube.md, the tests and the code agree on the list; each type tells the client what to do.
import {
  BadGatewayError,
  GatewayTimeoutError,
  NotFoundError,
  ServiceUnavailableError,
  UnprocessableError,
} from '../errors';

/** Why YouTube refused to serve us (a 503 problem's `block_reason`). */
export const BLOCK_REASONS = [
  'bot-check',
  'captcha',
  'rate-limited',
  'po-token-required',
  'consent-required',
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

const BLOCK_EXPLANATIONS: Record<BlockReason, string> = {
  'bot-check': 'YouTube asked this server to "confirm you\'re not a bot"',
  captcha: 'YouTube asked this server to solve a captcha instead of serving the video',
  'rate-limited':
    'YouTube is rationing this server\'s requests (HTTP 429, or "this content isn\'t available, try again later")',
  'po-token-required':
    "YouTube serves this video's captions only to clients holding a proof-of-origin (PO) token",
  'consent-required': 'YouTube answered with its cookie-consent page (typical of EU IP addresses)',
};

/** How a block came about: whether retrying from here was tried, and through a proxy. */
export interface BlockContext {
  /** A second try was made (fresh visitor data, a fresh proxy connection) and failed too. */
  retried: boolean;
  usingProxy: boolean;
}

/**
 * What an operator can do about a block of the address. A proxy is suggested only once
 * retrying from this address has failed: the bot check often passes on a second try with fresh
 * visitor data, and a rate limit lifts by itself.
 */
function addressRemedy(context: BlockContext | undefined): string {
  const notTheVideo = 'This is not a problem with the video.';
  if (context?.usingProxy) {
    return `${notTheVideo} It happened through the proxy of YOUTUBE_PROXY_URL${context.retried ? ', also on fresh connections' : ''}: a proxy with other (residential) addresses may help.`;
  }
  if (context?.retried) {
    return `${notTheVideo} Retrying from this address with fresh visitor data did not help: YouTube routinely blocks cloud IP addresses such as AWS Lambda's, and operators can route YouTube traffic through a proxy by setting YOUTUBE_PROXY_URL.`;
  }
  return `${notTheVideo} It usually passes after a while; if it keeps happening, operators can route YouTube traffic through a proxy (YOUTUBE_PROXY_URL).`;
}

/** What an operator can do about each block. */
function blockRemedy(reason: BlockReason, context: BlockContext | undefined): string {
  // A PO token proves the client, not the address: a proxy changes nothing here.
  if (reason === 'po-token-required') {
    return 'This is not a problem with the video, and a proxy does not help: operators can try other InnerTube clients (YOUTUBE_CLIENTS); the captions may also come back without a token later.';
  }
  return addressRemedy(context);
}

/** Default Retry-After for blocks: they rarely clear within minutes. */
export const DEFAULT_BLOCKED_RETRY_AFTER_SECONDS = 300;

/**
 * 503: YouTube refused this server (not the video). Tells operators what helps: a proxy only
 * when retrying from this address failed (`context`).
 */
export function youTubeBlocked(
  reason: BlockReason,
  retryAfterSeconds: number,
  cause?: unknown,
  context?: BlockContext,
): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'youtube-blocked',
    `${BLOCK_EXPLANATIONS[reason]}. ${blockRemedy(reason, context)} Try again later.`,
    retryAfterSeconds,
    { cause, extensions: { block_reason: reason } },
  );
}

/**
 * 502: YouTube refused every InnerTube client (typically HTTP 400 FAILED_PRECONDITION for a
 * client version it retired). Says which answered what; never blames the video or a PO token.
 */
export function clientsRefused(refusals: readonly string[]): BadGatewayError {
  return new BadGatewayError(
    'youtube-bad-response',
    `YouTube refused every InnerTube client this service tried (${refusals.join('; ')}). ` +
      'Operators: update YOUTUBE_CLIENTS (a newer version as NAME@VERSION, or other clients); ' +
      '`npm run canary` shows which clients work.',
  );
}

/** 404: the video does not exist, was removed, or is private. */
export function videoUnavailable(reason: string | undefined, cause?: unknown): NotFoundError {
  // YouTube's own full stop ends the sentence when it wrote one.
  const said = reason ? `: "${reason}"${/[.!?…]$/.test(reason) ? '' : '.'}` : '.';
  return new NotFoundError(
    `YouTube says this video is unavailable or private${said}`,
    'video-unavailable',
    { cause, extensions: reasonExtension(reason) },
  );
}

/** 422: the video plays but has no captions at all. */
export function captionsDisabled(): UnprocessableError {
  return new UnprocessableError(
    'captions-disabled',
    'Captions disabled',
    'This video has no captions (disabled by the uploader, or none were ever made), so there is no transcript to summarise.',
  );
}

/** 422: captions exist, but none in the language the request asked for. */
export function languageUnavailable(requested: string, available: string[]): UnprocessableError {
  return new UnprocessableError(
    'transcript-language-unavailable',
    'Transcript language unavailable',
    `This video has no captions in "${requested}". Available languages: ${available.join(', ')}.`,
    { extensions: { available_languages: available } },
  );
}

/** 422: YouTube wants a signed-in adult; we never sign in. */
export function ageRestricted(reason: string | undefined): UnprocessableError {
  const said = reason ? ` ("${reason}")` : '';
  return new UnprocessableError(
    'age-restricted',
    'Age-restricted video',
    `YouTube only shows this video to signed-in adults${said}, so its transcript cannot be fetched.`,
    { extensions: reasonExtension(reason) },
  );
}

/** 422: YouTube will not play the video here (region lock, members only, live not started...). */
export function videoUnplayable(reason: string | undefined): UnprocessableError {
  return new UnprocessableError(
    'video-unplayable',
    'Video unplayable',
    `YouTube will not play this video: ${sentence(reason ?? 'no reason given')}`,
    { extensions: reasonExtension(reason) },
  );
}

/** 422: a caption track exists but holds no spoken text (e.g. only "[Music]" cues). */
export function transcriptEmpty(): UnprocessableError {
  return new UnprocessableError(
    'transcript-empty',
    'Transcript empty',
    'The caption track of this video contains no spoken text to summarise.',
  );
}

/** 502: YouTube answered, but not with anything we can use. The detail is safe to show. */
export function youTubeBadResponse(detail: string, cause?: unknown): BadGatewayError {
  return new BadGatewayError(
    'youtube-bad-response',
    `YouTube sent an unusable answer: ${detail}.`,
    {
      cause,
    },
  );
}

/** 504: YouTube did not answer within our deadline. */
export function youTubeTimeout(cause?: unknown): GatewayTimeoutError {
  return new GatewayTimeoutError('youtube-timeout', 'YouTube did not answer in time.', { cause });
}

/** 503: no connection to YouTube (or to the configured proxy) could be made. */
export function youTubeUnreachable(usingProxy: boolean, cause?: unknown): ServiceUnavailableError {
  const hint = usingProxy ? ' Operators: check that the proxy in YOUTUBE_PROXY_URL is up.' : '';
  return new ServiceUnavailableError(
    'youtube-unreachable',
    `YouTube could not be reached.${hint} Try again later.`,
    30,
    { cause },
  );
}

/** A reason as the end of a sentence: one full stop, whether YouTube wrote it or not. */
function sentence(reason: string): string {
  return /[.!?…]$/.test(reason) ? reason : `${reason}.`;
}

function reasonExtension(reason: string | undefined): Record<string, unknown> {
  return reason ? { youtube_reason: reason } : {};
}
