// Reads YouTube's player response (from InnerTube or a watch page) and judges what it says
// about getting a transcript. youtube-transcript cannot be trusted with this: it swallows
// InnerTube failures and reports a bot check as "transcript disabled".
import type { HttpError } from '../../errors';
import { ageRestricted, type BlockReason, videoUnavailable, videoUnplayable } from '../errors';

/** The parts of YouTube's player response this service reads; everything is optional. */
export interface PlayerResponse {
  /** Where YouTube hands out the visitor data it expects on later requests. */
  responseContext?: { visitorData?: unknown };
  playabilityStatus?: {
    status?: string;
    reason?: string;
    errorScreen?: {
      playerErrorMessageRenderer?: { subreason?: TextRuns; playerCaptchaViewModel?: unknown };
      playerCaptchaViewModel?: unknown;
    };
  };
  captions?: {
    playerCaptionsTracklistRenderer?: { captionTracks?: unknown };
  };
  videoDetails?: Record<string, unknown>;
  /** The formats to play: the audio-only ones are what a transcription downloads. */
  streamingData?: { adaptiveFormats?: unknown };
  microformat?: { playerMicroformatRenderer?: Record<string, unknown> };
}

type TextRuns = { simpleText?: string; runs?: Array<{ text?: string }> };

/** One caption track as YouTube lists it. */
export interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  /** `asr` for automatic speech recognition. */
  kind?: string;
  name?: TextRuns;
  vssId?: string;
}

/** Visitor data as YouTube hands it out: a URL-safe token of some dozens of characters. */
export function isVisitorData(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9%_=-]{8,512}$/.test(value);
}

/** The visitor data an answer hands out, when it does. */
export function visitorDataOf(player: PlayerResponse): string | undefined {
  const value = player.responseContext?.visitorData;
  return isVisitorData(value) ? value : undefined;
}

/** Parses an InnerTube answer; undefined when it is not a player response. */
export function parsePlayerJson(body: string): PlayerResponse | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  return isRecord(parsed) && isRecord(parsed.playabilityStatus)
    ? (parsed as PlayerResponse)
    : undefined;
}

/**
 * Finds the player response inlined in a watch page. Tries `ytInitialPlayerResponse` first,
 * then the individual objects anywhere in the page (older pages embed them differently, and
 * sometimes not as valid JSON as a whole).
 */
export function extractPlayerResponse(html: string): PlayerResponse | undefined {
  const marker = /ytInitialPlayerResponse"?\]?\s*=\s*\{/.exec(html);
  if (marker) {
    const whole = parseObjectAt(html, marker.index + marker[0].length - 1);
    if (isRecord(whole) && isRecord(whole.playabilityStatus)) return whole as PlayerResponse;
  }
  const playabilityStatus = parseObjectAfter(html, '"playabilityStatus":');
  if (!isRecord(playabilityStatus)) return undefined;
  const player: PlayerResponse = { playabilityStatus };
  const captions = parseObjectAfter(html, '"captions":');
  if (isRecord(captions)) player.captions = captions;
  const videoDetails = parseObjectAfter(html, '"videoDetails":');
  if (isRecord(videoDetails)) player.videoDetails = videoDetails;
  const microformat = parseObjectAfter(html, '"microformat":');
  if (isRecord(microformat)) player.microformat = microformat;
  return player;
}

/**
 * The "this video does not exist" message of old watch pages that carry no player response;
 * undefined when the page is not one of those.
 */
export function legacyUnavailableMessage(html: string): string | undefined {
  // The block is on every old page but hidden (class "hid") unless the video is gone.
  if (!/id="player-unavailable"\s+class="(?![^"]*\bhid\b)[^"]*"/.test(html)) return undefined;
  const message = /id="unavailable-message"[^>]*>([^<]*)</.exec(html)?.[1];
  return message?.replace(/\s+/g, ' ').trim() || 'This video is unavailable';
}

/** True when the page is YouTube's captcha ("unusual traffic") page. */
export function isCaptchaPage(html: string): boolean {
  return html.includes('class="g-recaptcha"');
}

/** True when the page is YouTube's EU cookie-consent interstitial. */
export function isConsentPage(html: string): boolean {
  return html.includes('action="https://consent.youtube.com/s"');
}

/** What a player response says about getting a transcript from the client that asked. */
export type PlayerVerdict =
  | { kind: 'captions'; tracks: CaptionTrack[] }
  /** Playable, but no caption list: no captions, or none for this client. */
  | { kind: 'no-captions' }
  /** YouTube refused this client or this address, not the video. */
  | { kind: 'blocked'; reason: BlockReason }
  /** The answer is about another video (yt-dlp reads this as a block). */
  | { kind: 'other-video'; videoId: string }
  /**
   * What this client was told of the video: unavailable or private (404), age-restricted or
   * unplayable (422). Often about the client rather than the video (acquisition.ts asks others).
   */
  | { kind: 'verdict'; error: HttpError };

/**
 * Judges a player response. `expectedVideoId` is checked against `videoDetails.videoId` (a
 * response for another video is never summarised).
 */
export function judgePlayer(player: PlayerResponse, expectedVideoId?: string): PlayerVerdict {
  const answered = player.videoDetails?.videoId;
  if (expectedVideoId !== undefined && typeof answered === 'string' && answered !== expectedVideoId)
    return { kind: 'other-video', videoId: answered.slice(0, 20) };
  const status = player.playabilityStatus?.status ?? 'OK';
  const reason = text(player.playabilityStatus?.reason);
  const subreason = runsText(
    player.playabilityStatus?.errorScreen?.playerErrorMessageRenderer?.subreason,
  );
  const block = blockReason(player, status, `${reason ?? ''} ${subreason ?? ''}`);
  if (block) return { kind: 'blocked', reason: block };
  if (status !== 'OK') {
    const fullReason = reason && subreason ? `${reason} (${subreason})` : (reason ?? subreason);
    if (
      status === 'AGE_CHECK_REQUIRED' ||
      status === 'AGE_VERIFICATION_REQUIRED' ||
      /confirm your age|inappropriate for some users|age-restricted/i.test(reason ?? '')
    ) {
      return { kind: 'verdict', error: ageRestricted(reason) };
    }
    if (status === 'ERROR' || /\bprivate\b/i.test(reason ?? '')) {
      return { kind: 'verdict', error: videoUnavailable(reason) };
    }
    // UNPLAYABLE, CUSTOM, LIVE_STREAM_OFFLINE, LOGIN_REQUIRED for members-only content...
    return { kind: 'verdict', error: videoUnplayable(fullReason) };
  }
  const tracks = listCaptionTracks(player);
  return tracks.length > 0 ? { kind: 'captions', tracks } : { kind: 'no-captions' };
}

/**
 * Why YouTube refused to serve this client, if it did. yt-dlp reads the same three signals
 * (yt_dlp/extractor/youtube/_video.py): the bot check, a captcha view model (found both right
 * under errorScreen and inside its playerErrorMessageRenderer), and "This content isn't
 * available, try again later" (a session's rate limit, for up to an hour), in the reason or the
 * subreason, whatever the status.
 */
function blockReason(
  player: PlayerResponse,
  status: string,
  words: string,
): BlockReason | undefined {
  if (status === 'LOGIN_REQUIRED' && /not a bot/i.test(words)) return 'bot-check';
  const screen = player.playabilityStatus?.errorScreen;
  if (
    isRecord(screen?.playerCaptchaViewModel) ||
    isRecord(screen?.playerErrorMessageRenderer?.playerCaptchaViewModel)
  ) {
    return 'captcha';
  }
  if (/try again later/i.test(words)) return 'rate-limited';
  return undefined;
}

/** The caption tracks a player response lists (possibly none). */
export function listCaptionTracks(player: PlayerResponse): CaptionTrack[] {
  const raw = player.captions?.playerCaptionsTracklistRenderer?.captionTracks;
  return Array.isArray(raw)
    ? raw.filter(
        (track): track is CaptionTrack =>
          isRecord(track) &&
          typeof track.baseUrl === 'string' &&
          typeof track.languageCode === 'string' &&
          track.languageCode !== '',
      )
    : [];
}

/** True when the track's URL belongs to an experiment that withholds captions without a PO token. */
export function requiresPoToken(track: CaptionTrack): boolean {
  try {
    const experiments = new URL(track.baseUrl).searchParams.getAll('exp').join(',').split(',');
    // yt-dlp uses the same markers to predict that a track needs a PO token.
    return experiments.includes('xpe') || experiments.includes('xpv');
  } catch {
    return false;
  }
}

/** Plain text of a YouTube text object (`simpleText` or `runs`) or a string. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (isRecord(value)) return runsText(value as TextRuns);
  return undefined;
}

function runsText(value: TextRuns | undefined): string | undefined {
  if (!value) return undefined;
  if (typeof value.simpleText === 'string') return value.simpleText.trim() || undefined;
  // Runs are fragments of one text; YouTube usually puts the spaces in, but not always.
  let joined = '';
  for (const run of value.runs ?? []) {
    const piece = typeof run.text === 'string' ? run.text : '';
    const needsSpace = joined !== '' && piece !== '' && !/\s$/.test(joined) && !/^\s/.test(piece);
    joined += needsSpace ? ` ${piece}` : piece;
  }
  return joined.trim() || undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseObjectAfter(html: string, key: string): unknown {
  let from = 0;
  for (;;) {
    const index = html.indexOf(key, from);
    if (index === -1) return undefined;
    const start = index + key.length;
    if (html[start] === '{') return parseObjectAt(html, start);
    from = start;
  }
}

/**
 * Parses the JSON object starting at `start` by finding its closing brace while honouring
 * strings and escapes (a `}` inside a video description must not end it). Linear time.
 */
function parseObjectAt(source: string, start: number): unknown {
  let depth = 0;
  let inString = false;
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) {
        try {
          return JSON.parse(source.slice(start, i + 1));
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}
