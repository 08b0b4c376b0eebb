// What InnerTube expects of a player request from one of the clients YOUTUBE_CLIENTS names.
import type { InnerTubeClient } from '../../config/innertube-clients';

/**
 * The player request InnerTube expects from this client, for one video, with the visitor data
 * YouTube handed out (as `context.client.visitorData` and the `X-Goog-Visitor-Id` header).
 */
export function playerRequest(client: InnerTubeClient, videoId: string, visitorData?: string) {
  return {
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': client.userAgent,
      'X-YouTube-Client-Name': String(client.id),
      'X-YouTube-Client-Version': client.version,
      Origin: 'https://www.youtube.com',
      ...(visitorData === undefined ? {} : { 'X-Goog-Visitor-Id': visitorData }),
    },
    body: JSON.stringify({
      context: {
        client: {
          clientName: client.name,
          clientVersion: client.version,
          userAgent: client.userAgent,
          ...client.context,
          ...(visitorData === undefined ? {} : { visitorData }),
          // English reasons: the classification in player.ts matches on YouTube's wording.
          hl: 'en',
          timeZone: 'UTC',
          utcOffsetMinutes: 0,
        },
      },
      videoId,
      // As yt-dlp sends them: skip the "this video may be inappropriate" interstitial.
      contentCheckOk: true,
      racyCheckOk: true,
    }),
  };
}
