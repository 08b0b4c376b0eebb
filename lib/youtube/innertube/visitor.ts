// Visitor data: the token YouTube gives a visitor without an account, and expects back on every
// player request (NewPipeExtractor: "We must always pass a valid visitorData to get valid player
// responses"). Obtained once from InnerTube's `visitor_id` endpoint (or taken from an answer
// that hands one out), kept for the process (a warm Lambda, the local host), sent as
// `context.client.visitorData` and `X-Goog-Visitor-Id` of every player request, and renewed after a bot
// check. docs/youtube-clients.md gives the evidence.

import { innerTubeClient } from '../../config/innertube-clients';
import { HttpError } from '../../errors';
import type { YouTubeRequestInit } from '../fetch';
import { isRecord, isVisitorData } from './player';

const VISITOR_URL = 'https://www.youtube.com/youtubei/v1/visitor_id?prettyPrint=false';
/**
 * The client the visitor_id request speaks as: VISIONOS, as NewPipeExtractor's recorded request
 * does at www.youtube.com (ANDROID's is recorded only at youtubei.googleapis.com, a host the
 * controlled fetch does not go to).
 */
const VISITOR_CLIENT = innerTubeClient('VISIONOS');

type Fetch = (input: string, init?: YouTubeRequestInit) => Promise<Response>;

export interface VisitorSession {
  /**
   * The visitor data to send, asked for (within `timeoutMs`) when there is none yet;
   * undefined when YouTube gave none (requests then go without, as before).
   */
  current(fetch: Fetch, timeoutMs: number): Promise<string | undefined>;
  /** Keeps visitor data an answer handed out, when there is none yet. */
  learn(visitorData: string): void;
  /** Forgets it: the next request asks for new visitor data (after a bot check). */
  renew(): void;
}

/** One visitor for the process: one request to visitor_id at a time, however many callers. */
export function createVisitorSession(): VisitorSession {
  let visitorData: string | undefined;
  let pending: Promise<string | undefined> | undefined;

  async function ask(fetch: Fetch, timeoutMs: number): Promise<string | undefined> {
    try {
      const response = await fetch(VISITOR_URL, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': VISITOR_CLIENT.userAgent,
          'X-Goog-Api-Format-Version': '2',
          Origin: 'https://www.youtube.com',
        },
        body: JSON.stringify({
          context: {
            client: {
              clientName: VISITOR_CLIENT.name,
              clientVersion: VISITOR_CLIENT.version,
              ...VISITOR_CLIENT.context,
              hl: 'en',
              utcOffsetMinutes: 0,
            },
          },
        }),
        timeoutMs,
      });
      if (!response.ok) return undefined;
      const body: unknown = JSON.parse(await response.text());
      const value =
        isRecord(body) && isRecord(body.responseContext)
          ? body.responseContext.visitorData
          : undefined;
      return isVisitorData(value) ? value : undefined;
    } catch (error) {
      // Without visitor data the player requests still go, as they did before it was sent;
      // only the caller's own deadline ends the search.
      if (error instanceof HttpError || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  return {
    async current(fetch, timeoutMs) {
      if (visitorData !== undefined) return visitorData;
      pending ??= ask(fetch, timeoutMs).finally(() => {
        pending = undefined;
      });
      const obtained = await pending;
      visitorData ??= obtained;
      return visitorData;
    },
    learn(value) {
      if (isVisitorData(value)) visitorData ??= value;
    },
    renew() {
      visitorData = undefined;
    },
  };
}
