// The watch page, read only when no InnerTube client could say anything about a video (every
// one was refused): it says whether the video is unavailable, age-restricted, unplayable or
// without captions, or whether YouTube blocks this address. Its caption URLs need a PO token,
// so it never yields a transcript.
import type { HttpError } from '../../errors';
import type { AcquisitionContext } from '../acquisition/attempt';
import { captionsDisabled, videoUnavailable, youTubeBlocked } from '../errors';
import {
  extractPlayerResponse,
  isCaptchaPage,
  isConsentPage,
  judgePlayer,
  legacyUnavailableMessage,
} from './player';

const WATCH_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
// Consent already given, so EU addresses get the watch page rather than consent.youtube.com:
// yt-dlp sets SOCS=CAI ("accept all"), youtube-transcript-api sets CONSENT=YES+...; both go.
const CONSENT_COOKIE = 'SOCS=CAI; CONSENT=YES+cb';

/**
 * The consent cookie for a consent page that came anyway: `CONSENT=YES+` and the value of the
 * page's own form field `v`, as youtube-transcript-api answers it (`_create_consent_cookie`).
 */
export function consentCookieFrom(html: string): string | undefined {
  const value = /name="v" value="([^"]{1,200})"/.exec(html)?.[1];
  return value === undefined ? undefined : `SOCS=CAI; CONSENT=YES+${value}`;
}

/**
 * What the watch page says about the video: unavailable, age-restricted, unplayable, no
 * captions, or a block. Undefined when the page shows a playable video with captions (then the
 * clients are the problem, not the video).
 */
export async function watchPageVerdict(
  context: Pick<AcquisitionContext, 'fetch' | 'retryAfterSeconds'>,
  videoId: string,
): Promise<HttpError | undefined> {
  const fetchPage = (cookie: string) =>
    context.fetch(`https://www.youtube.com/watch?v=${videoId}&hl=en`, {
      headers: {
        'User-Agent': WATCH_USER_AGENT,
        'Accept-Language': 'en-US,en;q=0.9',
        Cookie: cookie,
      },
    });
  let page = await fetchPage(CONSENT_COOKIE);
  let html = await page.text();
  // The consent page although consent was sent: once more with the cookie its own form names.
  const answered = isConsentPage(html) ? consentCookieFrom(html) : undefined;
  if (answered) {
    page = await fetchPage(answered);
    html = await page.text();
  }
  if (isCaptchaPage(html)) return youTubeBlocked('captcha', context.retryAfterSeconds);
  // Still the consent page: it cannot be got past from here.
  if (isConsentPage(html)) return youTubeBlocked('consent-required', context.retryAfterSeconds);
  if (!page.ok) return undefined;
  const player = extractPlayerResponse(html);
  if (!player) {
    const gone = legacyUnavailableMessage(html);
    return gone ? videoUnavailable(gone) : undefined;
  }
  // Watch pages are not checked for the video ID: nothing from them is ever summarised.
  const verdict = judgePlayer(player);
  if (verdict.kind === 'blocked') return youTubeBlocked(verdict.reason, context.retryAfterSeconds);
  if (verdict.kind === 'verdict') return verdict.error;
  if (verdict.kind === 'no-captions') return captionsDisabled();
  return undefined;
}
