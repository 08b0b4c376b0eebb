// YouTube's variables: where requests go (base URLs, proxy), the InnerTube clients asked, and
// the deadlines and sizes of its answers.
import * as z from '../schema';
import { ClientSpecError, parseClientOrder } from './innertube-clients';
import { int, list, optionalString, url } from './values';

export const youtubeSettings = {
  /** Origin every YouTube request goes to (tests point it at a local server). */
  YOUTUBE_BASE_URL: url('https://www.youtube.com'),
  /** HTTP(S) proxy for YouTube requests: cloud IPs are often blocked by YouTube. */
  YOUTUBE_PROXY_URL: url(),
  /** Optional YouTube Data API v3 key: adds like/comment counts and an exact publish date. */
  YOUTUBE_API_KEY: optionalString,
  YOUTUBE_API_BASE_URL: url('https://www.googleapis.com'),
  YOUTUBE_TIMEOUT_MS: int(500, 30_000, 8_000),
  /**
   * Deadline of one caption download, shorter than the player's: a withheld track can take
   * seconds to answer nothing, and the next client's track may come at once.
   */
  YOUTUBE_CAPTION_TIMEOUT_MS: int(200, 30_000, 4_000),
  /**
   * InnerTube clients asked for a video's caption list, in order: comma-separated names, each
   * optionally NAME@VERSION (a retired version is a config change). Empty: ANDROID,IOS,VISIONOS.
   */
  YOUTUBE_CLIENTS: z.pipe(
    list,
    z.transform((items, context) => {
      try {
        return parseClientOrder(items);
      } catch (error) {
        if (!(error instanceof ClientSpecError)) throw error;
        context.issues.push({ code: 'custom', message: error.message, input: items });
        return z.NEVER;
      }
    }),
  ),
  /** Retries on a fresh proxy connection after YouTube blocks one (rotating proxies). */
  YOUTUBE_PROXY_RETRIES: int(0, 10, 2),
  YOUTUBE_MAX_RESPONSE_BYTES: int(65_536, 67_108_864, 8_388_608),
};
