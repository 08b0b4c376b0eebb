// The audio of a video as a player answer offers it: the audio-only formats of
// `streamingData.adaptiveFormats` (itags 139/140, AAC in MP4; 249/250/251, Opus in WebM), and
// the one to download for a transcription: the smallest that has a direct `url`. Formats that
// carry only a `signatureCipher` need YouTube's JavaScript player to sign, which this service
// never runs (the clients it asks are those that need none), so they are counted and skipped.
import type { InnerTubeClient } from '../../config/innertube-clients';
import { isRecord, type PlayerResponse } from '../innertube/player';
import type { ByteRange } from './segments';

/** One client's audio, ready to download: its smallest audio-only format with a direct URL. */
export interface AudioOffer {
  /** The client that was given the URL: googlevideo expects that client's User-Agent. */
  client: InnerTubeClient['name'];
  userAgent: string;
  itag: number;
  url: string;
  /** The container, e.g. `audio/webm; codecs="opus"`. */
  mimeType: string;
  /** Its size: exact (`contentLength`), else bitrate × duration; undefined when neither. */
  bytes: number | undefined;
  exact: boolean;
  /** The language of the audio track, when the video has several (dubbed) tracks. */
  language?: string;
  /**
   * Where its init segment and its index (WebM Cues, MP4 sidx) are, as the player answer says
   * (`initRange`, `indexRange`; here with exclusive ends): what lets it be cut into parts.
   */
  initRange?: ByteRange;
  indexRange?: ByteRange;
}

/** What one player answer offers in audio (the canary prints it). */
export interface AudioSummary {
  /** Audio-only formats with a direct URL, and those with only a signatureCipher. */
  direct: number;
  ciphered: number;
  /** The smallest direct one. */
  offer?: AudioOffer;
}

interface RawFormat {
  itag?: unknown;
  url?: unknown;
  signatureCipher?: unknown;
  cipher?: unknown;
  mimeType?: unknown;
  contentLength?: unknown;
  bitrate?: unknown;
  averageBitrate?: unknown;
  approxDurationMs?: unknown;
  audioTrack?: { id?: unknown; audioIsDefault?: unknown };
  isDrc?: unknown;
  initRange?: unknown;
  indexRange?: unknown;
}

/** A whole number of at least `min` (1 unless said), from a number or a string of digits. */
const positive = (value: unknown, min = 1): number | undefined => {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= min
    ? number
    : undefined;
};

/** A player answer's `{ start, end }` (inclusive, strings of digits) as a ByteRange. */
function byteRangeOf(value: unknown): ByteRange | undefined {
  if (!isRecord(value)) return undefined;
  const start = positive(value.start, 0);
  const end = positive(value.end, 0);
  return start !== undefined && end !== undefined && end >= start
    ? { start, end: end + 1 }
    : undefined;
}

/**
 * The audio a player answer offers `client`, and its smallest direct format. Of a video with
 * several audio tracks (dubbed versions), only the original (`audioIsDefault`) is considered.
 * `durationSeconds` (the video's) sizes formats whose answer gives a bitrate but no length.
 */
export function audioOf(
  player: PlayerResponse,
  client: Pick<InnerTubeClient, 'name' | 'userAgent'>,
  durationSeconds: number | null,
): AudioSummary {
  const raw = player.streamingData?.adaptiveFormats;
  let formats = (Array.isArray(raw) ? raw : []).filter(
    (format): format is RawFormat =>
      isRecord(format) &&
      typeof format.mimeType === 'string' &&
      format.mimeType.startsWith('audio/'),
  );
  if (formats.some((format) => isRecord(format.audioTrack))) {
    formats = formats.filter((format) => format.audioTrack?.audioIsDefault === true);
  }
  // Dynamic-range-compressed copies (`isDrc`) are as large and less faithful: the plain ones win.
  if (formats.some((format) => format.isDrc !== true)) {
    formats = formats.filter((format) => format.isDrc !== true);
  }
  const direct = formats.filter((format) => typeof format.url === 'string');
  const summary: AudioSummary = {
    direct: direct.length,
    ciphered: formats.filter(
      (format) =>
        typeof format.url !== 'string' &&
        (typeof format.signatureCipher === 'string' || typeof format.cipher === 'string'),
    ).length,
  };
  for (const format of direct) {
    const offer = offerOf(format, client, durationSeconds);
    if (offer && (!summary.offer || smaller(offer, summary.offer))) summary.offer = offer;
  }
  return summary;
}

/** The video's length in seconds as the player answer says it (`videoDetails.lengthSeconds`). */
export function durationOf(player: PlayerResponse): number | null {
  return positive(player.videoDetails?.lengthSeconds) ?? null;
}

/** Whether `a` is the better choice: known sizes first, then the smaller. */
function smaller(a: AudioOffer, b: AudioOffer): boolean {
  if (a.bytes === undefined) return false;
  return b.bytes === undefined || a.bytes < b.bytes;
}

function offerOf(
  format: RawFormat,
  client: Pick<InnerTubeClient, 'name' | 'userAgent'>,
  durationSeconds: number | null,
): AudioOffer | undefined {
  const itag = positive(format.itag);
  if (itag === undefined || typeof format.url !== 'string') return undefined;
  const exactBytes = positive(format.contentLength);
  const bitrate = positive(format.averageBitrate) ?? positive(format.bitrate);
  const durationMs =
    positive(format.approxDurationMs) ?? (durationSeconds ? durationSeconds * 1000 : undefined);
  const estimate = bitrate && durationMs ? Math.ceil((bitrate * durationMs) / 8_000) : undefined;
  const track = typeof format.audioTrack?.id === 'string' ? format.audioTrack.id : undefined;
  // Track ids read "en.4", "pt-BR.3": the language, then YouTube's own number.
  const language = track?.split('.')[0];
  const initRange = byteRangeOf(format.initRange);
  const indexRange = byteRangeOf(format.indexRange);
  return {
    client: client.name,
    userAgent: client.userAgent,
    itag,
    url: format.url,
    mimeType: String(format.mimeType),
    bytes: exactBytes ?? estimate,
    exact: exactBytes !== undefined,
    ...(language ? { language } : {}),
    // Both or neither: the index is read only where the init segment is known to end.
    ...(initRange && indexRange && initRange.start === 0 && indexRange.start >= initRange.end
      ? { initRange, indexRange }
      : {}),
  };
}
