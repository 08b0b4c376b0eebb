// The media side of the fake YouTube (fake-youtube.ts): what googlevideo.com does for a video's
// audio. The recorded player answers list their audio formats (`streamingData.adaptiveFormats`,
// itags 139/140/249/250/251, with googlevideo URLs); the fake rewrites each URL onto its own
// origin (or, as a scenario says, onto a foreign host, or drops it for a signatureCipher) and
// serves `GET /videoplayback` as googlevideo does: the bytes of the format, a Range at a time
// (206 with Content-Range; 416 past the end), 403 for a URL YouTube would refuse. The smallest
// formats, the ones the service downloads (itag 139, AAC in fragmented MP4; itag 249, Opus in
// WebM), are DASH files as YouTube serves them (media/containers.ts: init segment, index, then
// clusters or fragments, of the video's length and the format's size, payloads made up), and the
// player answer says their real `contentLength`, `initRange` and `indexRange`; the other formats
// are made-up bytes of their size. A scenario may serve a format without its index (`unindexed`)
// to test what the service does with audio it cannot cut.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type GeneratedAudio, mp4Audio, webmAudio } from './media/containers';

/** How a scenario changes the audio of its recording. */
export interface AudioEdit {
  /** Where the URLs point: the fake (default), or a foreign host (the off-site canary). */
  host?: 'fake' | 'foreign';
  /** The media server redirects every request to a foreign host (the canary). */
  redirectForeign?: boolean;
  /** The formats carry only a signatureCipher, no URL. */
  cipherOnly?: boolean;
  /** The video's length (videoDetails.lengthSeconds and the formats' approxDurationMs). */
  lengthSeconds?: number;
  /** The formats' sizes scaled so that the smallest is this many bytes. */
  smallestBytes?: number;
  /** The media server answers 403 to these clients' URLs (the `c=` parameter). */
  refuse?: readonly string[];
  /** The player says each format is this many times smaller than the bytes served. */
  understate?: number;
  /**
   * Audio that cannot be cut: `no-ranges`, the DASH files but a player answer without
   * `initRange`/`indexRange`; `garbage`, made-up bytes where the player says the ranges are.
   */
  unindexed?: 'no-ranges' | 'garbage';
  /** Only these itags are offered (the others are left out of the player answer). */
  itags?: readonly number[];
}

/** One request the media server answered. */
export interface MediaRequest {
  videoId: string;
  itag: number;
  client: string;
  /** The Range asked for, as [first, last] byte (inclusive); undefined without one. */
  range?: [number, number];
  status: number;
  userAgent?: string;
  /** When it arrived and when its answer was sent (epoch ms). */
  receivedAt: number;
  answeredAt?: number;
  /** The DASH file it was a request of (DASH_ITAGS), with its ranges. */
  file?: GeneratedAudio;
}

interface Format {
  itag?: number;
  url?: string;
  signatureCipher?: string;
  mimeType?: string;
  contentLength?: string;
  approxDurationMs?: string;
  initRange?: { start: string; end: string };
  indexRange?: { start: string; end: string };
  bitrate?: number;
  averageBitrate?: number;
  isDrc?: boolean;
}

/** The itags served as real DASH files: YouTube's smallest audio formats. */
export const DASH_ITAGS: ReadonlySet<number> = new Set([139, 249]);

/**
 * Rewrites the audio formats of a player answer (in place) for `client` and `videoId`, as
 * `edit` says. `origin` is the fake's, `foreign` the canary's.
 */
export function rewriteAudio(
  player: {
    streamingData?: { adaptiveFormats?: Format[] };
    videoDetails?: { lengthSeconds?: string };
  },
  context: { origin: string; foreign: string; videoId: string; client: string },
  edit: AudioEdit = {},
): void {
  const streaming = player.streamingData;
  if (streaming?.adaptiveFormats && edit.itags) {
    const kept = edit.itags;
    streaming.adaptiveFormats = streaming.adaptiveFormats.filter(
      (format) => !format.mimeType?.startsWith('audio/') || kept.includes(format.itag ?? 0),
    );
  }
  const formats = streaming?.adaptiveFormats ?? [];
  const audio = formats.filter((format) => format.mimeType?.startsWith('audio/'));
  const sizes = audio.map((format) => Number(format.contentLength ?? 0)).filter((size) => size > 0);
  const scale =
    edit.smallestBytes && sizes.length > 0 ? edit.smallestBytes / Math.min(...sizes) : 1;
  if (edit.lengthSeconds !== undefined && player.videoDetails) {
    player.videoDetails.lengthSeconds = String(edit.lengthSeconds);
  }
  const lengthMs =
    (edit.lengthSeconds ?? Number(player.videoDetails?.lengthSeconds ?? 0)) * 1000 ||
    Number(audio[0]?.approxDurationMs ?? 0);
  for (const format of audio) {
    const target = Math.round(Number(format.contentLength ?? 0) * scale);
    let size = target;
    if (edit.lengthSeconds !== undefined)
      format.approxDurationMs = String(edit.lengthSeconds * 1000);
    const dash = dashFile(context.videoId, format, target, lengthMs, edit);
    if (dash && given.has(`${context.videoId}/${format.itag}`) && player.videoDetails) {
      player.videoDetails.lengthSeconds = String(Math.floor(dash.durationMs / 1000));
    }
    if (dash) {
      size = dash.bytes.byteLength;
      format.approxDurationMs = String(dash.durationMs);
      if (edit.unindexed === 'no-ranges') {
        delete format.initRange;
        delete format.indexRange;
      } else {
        format.initRange = { start: '0', end: String(dash.initRange.end) };
        format.indexRange = {
          start: String(dash.indexRange.start),
          end: String(dash.indexRange.end),
        };
      }
    }
    if (format.contentLength !== undefined) {
      format.contentLength = String(Math.round(size / (edit.understate ?? 1)));
    }
    const original = new URL(format.url ?? 'https://rr1---sn-fake.googlevideo.com/videoplayback');
    const base = edit.host === 'foreign' ? context.foreign : context.origin;
    const url = new URL(`${base}/videoplayback${original.search}`);
    url.searchParams.set('v', context.videoId);
    url.searchParams.set('c', context.client);
    url.searchParams.set('clen', String(size));
    // What the media server needs to serve the same DASH file: its shape as generated.
    if (dash) {
      url.searchParams.set('gen', String(target));
      url.searchParams.set('dur', String(lengthMs));
    }
    if (edit.cipherOnly) {
      delete format.url;
      format.signatureCipher = `s=AOq0QJ8wRQIhAL&sp=sig&url=${encodeURIComponent(url.href)}`;
    } else {
      format.url = url.href;
    }
  }
}

const files = new Map<string, GeneratedAudio>();
/** Files a test gave for a video's itag (real encoded speech), by `videoId/itag`. */
const given = new Map<string, GeneratedAudio>();

/**
 * Serves `file` (e.g. speech encoded by ffmpeg as YouTube serves it) as the audio of `videoId`'s
 * `itag` in place of a generated one; the player answer says its size, ranges and length.
 * `undefined` goes back to the generated file.
 */
export function serveAudioFile(videoId: string, itag: number, file: GeneratedAudio | undefined) {
  if (file) given.set(`${videoId}/${itag}`, file);
  else given.delete(`${videoId}/${itag}`);
}

/**
 * The DASH file of a format served as one (DASH_ITAGS, not a DRC copy, not made garbage), of the
 * video's length and about the format's size: generated once per video, itag and shape.
 */
function dashFile(
  videoId: string,
  format: Format,
  size: number,
  lengthMs: number,
  edit: AudioEdit,
): GeneratedAudio | undefined {
  const itag = format.itag ?? 0;
  if (!DASH_ITAGS.has(itag) || format.isDrc || edit.unindexed === 'garbage') return undefined;
  const file = given.get(`${videoId}/${itag}`);
  if (file) return file;
  return lengthMs > 0 ? dashFileOf(videoId, itag, size, lengthMs) : undefined;
}

/** The DASH file served for `videoId` and `itag` (generated on first use). */
export function dashFileOf(
  videoId: string,
  itag: number,
  size: number,
  lengthMs: number,
): GeneratedAudio {
  const key = `${videoId}/${itag}/${size}/${lengthMs}`;
  let file = given.get(`${videoId}/${itag}`) ?? files.get(key);
  if (!file) {
    const shape = {
      durationMs: lengthMs,
      bytesPerSecond: size / (lengthMs / 1000),
      seed: createHash('sha256').update(key).digest().readUInt32LE(0) || 1,
    };
    file = itag === 139 ? mp4Audio(shape) : webmAudio(shape);
    files.set(key, file);
  }
  return file;
}

const streams = new Map<string, Buffer>();

/** The made-up bytes of one format: deterministic, `size` long. */
export function audioBytes(videoId: string, itag: number, size: number): Buffer {
  const key = `${videoId}/${itag}/${size}`;
  let bytes = streams.get(key);
  if (!bytes) {
    // xorshift32 seeded by the key's hash: 30 MB in tens of milliseconds, no two formats alike.
    let state = createHash('sha256').update(key).digest().readUInt32LE(0) || 1;
    const words = new Uint32Array(Math.ceil(size / 4));
    for (let i = 0; i < words.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      words[i] = state >>> 0;
    }
    bytes = Buffer.from(words.buffer, 0, size);
    streams.set(key, bytes);
  }
  return bytes;
}

/**
 * Answers `GET /videoplayback` as googlevideo does, logging it. `edit` is the scenario's audio
 * edit for the video; `foreign` where a redirect sends.
 */
export function serveMedia(
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
  edit: AudioEdit,
  foreign: string,
  log: MediaRequest[],
): void {
  const videoId = url.searchParams.get('v') ?? '';
  const itag = Number(url.searchParams.get('itag'));
  const client = url.searchParams.get('c') ?? '';
  const size = Number(url.searchParams.get('clen'));
  const range = /^bytes=(\d+)-(\d*)$/.exec(String(request.headers.range ?? ''));
  const entry: MediaRequest = { videoId, itag, client, status: 200, receivedAt: Date.now() };
  const userAgent = request.headers['user-agent'];
  if (userAgent) entry.userAgent = userAgent;
  log.push(entry);
  const answer = (status: number, headers: Record<string, string>, body?: Buffer) => {
    entry.status = status;
    response.writeHead(status, headers);
    response.end(body, () => {
      entry.answeredAt = Date.now();
    });
  };
  if (edit.redirectForeign) {
    answer(302, { Location: `${foreign}/videoplayback${url.search}` });
    return;
  }
  if (edit.refuse?.includes(client) || !Number.isInteger(itag) || !(size > 0)) {
    answer(403, { 'Content-Type': 'text/plain' }, Buffer.from('Forbidden'));
    return;
  }
  const lengthMs = Number(url.searchParams.get('dur'));
  const target = Number(url.searchParams.get('gen'));
  const file = lengthMs > 0 && target > 0 ? dashFileOf(videoId, itag, target, lengthMs) : undefined;
  if (file) entry.file = file;
  const bytes = file ? file.bytes : audioBytes(videoId, itag, size);
  if (!range) {
    answer(200, { 'Content-Type': 'audio/webm' }, bytes);
    return;
  }
  const first = Number(range[1]);
  const last = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
  entry.range = [first, range[2] ? Number(range[2]) : size - 1];
  if (first >= size || last < first) {
    answer(416, { 'Content-Range': `bytes */${size}` });
    return;
  }
  answer(
    206,
    {
      'Content-Type': 'audio/webm',
      'Content-Range': `bytes ${first}-${last}/${size}`,
      'Content-Length': String(last - first + 1),
    },
    bytes.subarray(first, last + 1),
  );
}
