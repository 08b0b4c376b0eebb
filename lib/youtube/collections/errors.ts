// Every way listing a playlist or a channel can fail that a video cannot, as the problem types
// clients see (the transport's own: youtube-blocked, youtube-timeout... come from ../errors.ts).
import { NotFoundError, UnprocessableError, ValidationError } from '../../errors';

/** 422: a mix (`RD…`) is made up per viewer on the watch page; it has no list to read. */
export function collectionMixUnsupported(listId: string): UnprocessableError {
  return new UnprocessableError(
    'collection-mix-unsupported',
    'Mix unsupported',
    `"${listId.slice(0, 60)}" is a YouTube mix, a list YouTube makes up for each viewer as it plays; it has no fixed entries to summarize. Use a regular playlist or a channel, or summarize the video itself with POST /summarize.`,
  );
}

/** 404: YouTube says the playlist does not exist, is private, or cannot be viewed. */
export function playlistUnavailable(reason: string | undefined, cause?: unknown): NotFoundError {
  return new NotFoundError(
    `YouTube says this playlist ${verdict(reason)}${said(reason)}`,
    'playlist-unavailable',
    { cause, extensions: reason ? { youtube_reason: reason } : {} },
  );
}

/** 404: YouTube says the channel does not exist, or was removed or terminated. */
export function channelUnavailable(reason: string | undefined, cause?: unknown): NotFoundError {
  return new NotFoundError(
    `YouTube says this channel ${verdict(reason)}${said(reason)}`,
    'channel-unavailable',
    { cause, extensions: reason ? { youtube_reason: reason } : {} },
  );
}

/** 404: InnerTube resolves no channel for this handle or name (resolve_url answers 404). */
export function channelNotFound(name: string): NotFoundError {
  return new NotFoundError(
    `YouTube knows no channel by the name "${name.slice(0, 120)}": it does not exist.`,
    'channel-unavailable',
  );
}

/** 422 on `url`: not a link to a playlist or a channel. */
export function notACollection(message: string): ValidationError {
  return new ValidationError([{ field: 'url', message }]);
}

/** What YouTube's words amount to: private, gone, or (when they say neither) unavailable. */
function verdict(reason: string | undefined): string {
  const lower = reason?.toLowerCase() ?? '';
  if (lower.includes('private')) return 'is private';
  if (lower.includes('does not exist') || lower.includes('not found')) return 'does not exist';
  if (lower.includes('terminated') || lower.includes('removed')) return 'was removed';
  return 'is unavailable';
}

/** YouTube's own words after a colon, with one full stop at the end. */
function said(reason: string | undefined): string {
  if (!reason) return '.';
  return `: "${reason}"${/[.!?…]$/.test(reason) ? '' : '.'}`;
}
