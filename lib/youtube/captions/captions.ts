// Caption track bodies in YouTube's three formats, read into cues timed in milliseconds:
//   classic  <transcript><text start="1.54" dur="4.16">...</text>          times in seconds
//   srv3     <timedtext format="3"><body><p t="1540" d="4160">...</p>      milliseconds
//   json3    {"events":[{"tStartMs":1540,"dDurationMs":4160,"segs":[...]}]} milliseconds
// youtube-transcript parses the two XML formats. It offers that only through fetchTranscript,
// so it is handed the body we downloaded ourselves; json3, which it does not read, is parsed
// here. What a cue says is cleaned later, the same way for every format.
import { YoutubeTranscript } from 'youtube-transcript';
import { youTubeBadResponse } from '../errors';

export type CaptionFormat = 'classic' | 'srv3' | 'json3';

/** A cue as read from the track, before cleaning: times in milliseconds. */
export interface RawCaption {
  text: string;
  offsetMs: number;
  durationMs: number;
  /** A transcribed line whose time was laid over the audio by its length, not heard. */
  estimated?: true;
}

/** The format of a caption track body, or undefined when it is none of YouTube's. */
export function captionFormat(body: string): CaptionFormat | undefined {
  const start = body.trimStart();
  if (start.startsWith('{')) return 'json3';
  if (/<timedtext\b/.test(start.slice(0, 500))) return 'srv3';
  if (/<transcript\b/.test(start.slice(0, 500))) return 'classic';
  return undefined;
}

/**
 * The cues of a caption track body.
 * @throws BadGatewayError (youtube-bad-response) when the body is not a caption track.
 */
export async function parseCaptions(
  body: string,
  context: { videoId: string; language: string },
): Promise<RawCaption[]> {
  const format = captionFormat(body);
  if (format === undefined) throw youTubeBadResponse('the caption track is in no known format');
  if (format === 'json3') return parseJson3(body);
  const cues = await parseXml(body, context);
  // The library gives srv3 times in milliseconds and classic times in seconds.
  const scale = format === 'srv3' ? 1 : 1000;
  return cues.map((cue) => ({
    text: cue.text,
    offsetMs: toMs(cue.offset, scale),
    durationMs: toMs(cue.duration, scale),
  }));
}

/** youtube-transcript's parser, fed the body through the two requests fetchTranscript makes. */
async function parseXml(body: string, context: { videoId: string; language: string }) {
  const trackUrl = `https://www.youtube.com/api/timedtext?v=${context.videoId}`;
  const player = JSON.stringify({
    captions: {
      playerCaptionsTracklistRenderer: {
        captionTracks: [{ baseUrl: trackUrl, languageCode: context.language }],
      },
    },
  });
  const serve = async (input: string | URL | Request) => {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    if (url.includes('/youtubei/v1/player')) return new Response(player);
    if (url === trackUrl) return new Response(body);
    // Its fallback to the watch page means the parse failed: nothing is fetched for real.
    throw new Error('the caption track could not be parsed');
  };
  try {
    return await YoutubeTranscript.fetchTranscript(context.videoId, {
      fetch: serve as typeof globalThis.fetch,
      lang: context.language,
    });
  } catch (error) {
    throw youTubeBadResponse('the caption track could not be parsed', error);
  }
}

interface Json3 {
  events?: Array<{ tStartMs?: unknown; dDurationMs?: unknown; segs?: Array<{ utf8?: unknown }> }>;
}

/** json3: events with text segments; window and line-break ("aAppend") events carry no text. */
function parseJson3(body: string): RawCaption[] {
  let parsed: Json3;
  try {
    parsed = JSON.parse(body) as Json3;
  } catch (error) {
    throw youTubeBadResponse('the caption track is not valid JSON', error);
  }
  if (!Array.isArray(parsed.events)) throw youTubeBadResponse('the caption track has no events');
  const cues: RawCaption[] = [];
  for (const event of parsed.events) {
    if (!Array.isArray(event.segs)) continue;
    const text = event.segs.map((seg) => (typeof seg.utf8 === 'string' ? seg.utf8 : '')).join('');
    if (text.trim() === '') continue;
    cues.push({
      text,
      offsetMs: toMs(Number(event.tStartMs), 1),
      durationMs: toMs(Number(event.dDurationMs ?? 0), 1),
    });
  }
  return cues;
}

function toMs(value: number, scale: number): number {
  return Number.isFinite(value) && value > 0 ? Math.round(value * scale) : 0;
}
