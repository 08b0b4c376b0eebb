// Turns what a user pasted into an 11-character video ID, or refuses it. Nothing here touches
// the network: outbound requests are later built from a fixed origin and this ID alone, so the
// only thing a hostile URL can achieve is a 422.
import { ValidationError } from '../errors';

export const MAX_VIDEO_URL_LENGTH = 2048;

/** A YouTube video ID: 11 characters of the URL-safe base64 alphabet. */
export const VIDEO_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;

/** Hosts a video link may use, mapped to the path forms each one serves. */
const WATCH_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
]);
const SHORT_HOSTS = new Set(['youtu.be']);
const NOCOOKIE_HOSTS = new Set(['youtube-nocookie.com', 'www.youtube-nocookie.com']);

/** Path prefixes followed by the ID on the youtube.com hosts. */
const ID_PATHS = new Set(['embed', 'shorts', 'live', 'v']);

// Links pasted without a scheme are common; only the known hosts get one added.
const SCHEMELESS = /^(?:(?:www|m|music)\.)?(?:youtube\.com|youtu\.be|youtube-nocookie\.com)\//i;

// The accepted forms as one regular expression, for the OpenAPI document (JSON Schema patterns
// are ECMA-262 regexes without flags). Every string it matches is accepted by parseVideoId (a
// test generates thousands to check); it is stricter than the parser on purpose where a regex
// would turn unreadable: lower-case scheme and host, no surrounding spaces, at most one `v`.
const ID_SOURCE = VIDEO_ID_PATTERN.source.slice(1, -1);
/** A query parameter other than `v` (its name never is "v", so the ID is never ambiguous). */
const PARAM = "(?:[A-Za-uw-z0-9_.~-][A-Za-z0-9_.~-]*|v[A-Za-z0-9_.~-]+)(?:=[!$%'-~]*)?";
const QUERY = '(?:\\?[!-"$-~]*)?';
const FRAGMENT = '(?:#[!-~]*)?';
const WATCH = `watch\\?(?:${PARAM}&)*v=${ID_SOURCE}(?:&${PARAM})*`;
const ON_YOUTUBE = `(?:www\\.|m\\.|music\\.)?youtube\\.com/(?:${WATCH}|(?:embed|shorts|live|v)/${ID_SOURCE}/?${QUERY})`;
const ON_SHORT = `youtu\\.be/${ID_SOURCE}/?${QUERY}`;
const ON_NOCOOKIE = `(?:www\\.)?youtube-nocookie\\.com/embed/${ID_SOURCE}/?${QUERY}`;

/** The accepted forms of `video_url` as a JSON Schema pattern (a subset of what is accepted). */
export const VIDEO_URL_PATTERN = `^(?:${ID_SOURCE}|(?:https?://)?(?:${ON_YOUTUBE}|${ON_SHORT}|${ON_NOCOOKIE})${FRAGMENT})$`;

/** What to paste instead: one calm line under the field, not a list of every accepted form. */
const USE_A_VIDEO_LINK =
  'Use a link to a YouTube video (youtube.com or youtu.be) or its 11-character ID.';

/** True for a string shaped like a YouTube video ID. */
export function isVideoId(value: string): boolean {
  return VIDEO_ID_PATTERN.test(value);
}

/**
 * Extracts the video ID from a YouTube link or a bare ID, without any network request.
 * @throws ValidationError (422, field `video_url`) for anything else: other hosts and schemes,
 * look-alike or IDN hosts, credentials, ports, IP addresses, inputs over 2048 characters.
 */
export function parseVideoId(input: string): string {
  if (typeof input !== 'string') refuse('Send the link as a string.');
  if (input.length > MAX_VIDEO_URL_LENGTH) {
    refuse(`Use a link of at most ${MAX_VIDEO_URL_LENGTH} characters.`);
  }
  const trimmed = input.trim();
  if (trimmed === '') refuse('Paste the link of a YouTube video.');
  if (VIDEO_ID_PATTERN.test(trimmed)) return trimmed;

  // Control characters, spaces and anything outside printable ASCII are refused before the
  // WHATWG parser can normalise them away (it maps fullwidth letters and IDN to ASCII hosts).
  if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    refuse('Use a plain link, without spaces or special characters.');
  }
  const withScheme = SCHEMELESS.test(trimmed) ? `https://${trimmed}` : trimmed;
  const authority = /^https?:\/\/([^/?#]*)/i.exec(withScheme)?.[1];
  if (authority === undefined) refuse(USE_A_VIDEO_LINK);
  // Checked on the raw text: userinfo (`www.youtube.com@evil.tld`), ports, IPv6 literals,
  // backslashes and percent-encoding never reach a host comparison.
  if (!/^[A-Za-z0-9.-]+$/.test(authority)) {
    refuse('Use a YouTube link without credentials, a port or unusual characters in the host.');
  }

  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    refuse(USE_A_VIDEO_LINK);
  }
  const id = idFromUrl(url);
  if (id === undefined) {
    refuse(
      WATCH_HOSTS.has(url.hostname) ||
        SHORT_HOSTS.has(url.hostname) ||
        NOCOOKIE_HOSTS.has(url.hostname)
        ? 'This link is not to a video: use the link of one video.'
        : USE_A_VIDEO_LINK,
    );
  }
  return id;
}

function idFromUrl(url: URL): string | undefined {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const host = url.hostname;
  let candidate: string | undefined;
  if (SHORT_HOSTS.has(host)) {
    candidate = segments.length === 1 ? segments[0] : undefined;
  } else if (NOCOOKIE_HOSTS.has(host)) {
    candidate = segments.length === 2 && segments[0] === 'embed' ? segments[1] : undefined;
  } else if (WATCH_HOSTS.has(host)) {
    if (segments.length === 1 && segments[0] === 'watch') {
      // Two different `v` values are ambiguous; refusing beats guessing.
      const values = new Set(url.searchParams.getAll('v'));
      candidate = values.size === 1 ? [...values][0] : undefined;
    } else if (segments.length === 2 && ID_PATHS.has(segments[0] ?? '')) {
      candidate = segments[1];
    }
  }
  return candidate !== undefined && VIDEO_ID_PATTERN.test(candidate) ? candidate : undefined;
}

function refuse(message: string): never {
  throw new ValidationError([{ field: 'video_url', message }]);
}
