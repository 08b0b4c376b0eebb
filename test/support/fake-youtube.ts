// A local node:http server that plays YouTube's origin (and the Data API) from the recorded
// responses in test/fixtures/youtube (MIT, recorded by youtube-transcript-api), plus a tiny CONNECT proxy. Point YOUTUBE_BASE_URL
// (and YOUTUBE_API_BASE_URL) at `baseUrl`. Nothing here reaches the internet.
//
// The video ID picks the scenario (`useScenario` can force one for every ID):
//
// | scenario           | video ID      | InnerTube POST /youtubei/v1/player | GET /watch                   | expected     |
// |--------------------|---------------|------------------------------------|------------------------------|--------------|
// | normal             | GJLlxj_dtq8   | youtube.innertube.json             | youtube.html                 | 200, English |
// | blocked            | blocked_bot   | youtube_request_blocked.innertube  | youtube_request_blocked.html | 503 blocked  |
// | captcha            | captchapage   | 400 FAILED_PRECONDITION            | youtube_too_many_requests    | 503 blocked  |
// | too-many-requests  | toomany_429   | 429, Retry-After: 120              | 429                          | 503 blocked  |
// | po-token           | potokenpage   | 400                                | youtube.html (exp=xpe URLs)  | 503 blocked  |
// | empty-track        | emptytrack0   | normal, caption answers empty 200  | -                            | 503 blocked  |
// | consent            | consentpage   | 400                                | youtube_consent_page.html    | 503 blocked  |
// | disabled           | no_captions   | youtube_transcripts_disabled       | youtube_transcripts_disabled | 422          |
// | no-transcript      | notrackpage   | 400                                | youtube_no_transcript_avail. | 422          |
// | unplayable         | unplayable_   | youtube_unplayable.innertube.json  | youtube_unplayable.html      | 422          |
// | unavailable        | unavailable   | youtube_video_unavailable.innertube| youtube_video_unavailable    | 404          |
// | unavailable-page   | unavailpage   | 400                                | youtube_video_unavailable    | 404          |
// | age-restricted     | agerestrict   | 400                                | youtube_video_login_required | 422          |
// | hang               | hangforever   | never answers                      | never answers                | 504          |
// | garbage            | garbagebody   | 200, not JSON                      | 200, not HTML                | 502          |
// | server-error       | servererror   | 500                                | 500                          | 502          |
// | huge-body          | hugebodyxxl   | endless 200 body (up to 256 MiB)   | same                         | 502          |
// | redirect           | redirectout   | 302 to another origin (a canary)   | same                         | 502          |
// | srv3               | srv3_format   | normal, caption track in srv3      | -                            | 200          |
// | music-only         | musiconly00   | normal, caption track only cues    | -                            | 422          |
// | slow-captions      | slowcaption   | normal, caption track never answers| -                            | 504          |
// Any other ID answers like `unavailable` (YouTube says ERROR for IDs that do not exist).
//
// Caption tracks (GET /api/timedtext) are chosen by their `v`, `lang` and `kind` parameters:
// manual English is the recorded transcript.xml; the other languages and the automatic English
// track are small synthesized tracks (Chinese text for zh) so tests can tell which was chosen.
// URLs carrying `exp=xpe` get the empty 200 real YouTube gives clients without a PO token.
// The Data API (GET /youtube/v3/videos) is synthesized and wants `X-Goog-Api-Key: FAKE_API_KEY`.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const FIXTURES_DIR = resolve(REPO_ROOT, 'test/fixtures/youtube');

export const FAKE_VIDEO_IDS = {
  normal: 'GJLlxj_dtq8',
  blocked: 'blocked_bot',
  captcha: 'captchapage',
  'too-many-requests': 'toomany_429',
  'po-token': 'potokenpage',
  'empty-track': 'emptytrack0',
  consent: 'consentpage',
  disabled: 'no_captions',
  'no-transcript': 'notrackpage',
  unplayable: 'unplayable_',
  unavailable: 'unavailable',
  'unavailable-page': 'unavailpage',
  'age-restricted': 'agerestrict',
  hang: 'hangforever',
  garbage: 'garbagebody',
  'server-error': 'servererror',
  'huge-body': 'hugebodyxxl',
  redirect: 'redirectout',
  srv3: 'srv3_format',
  'music-only': 'musiconly00',
  'slow-captions': 'slowcaption',
} as const;

export type FakeScenario = keyof typeof FAKE_VIDEO_IDS;

/** The problem each failing scenario must produce (status and problem type). */
export const EXPECTED_PROBLEMS = {
  blocked: { status: 503, type: 'youtube-blocked' },
  captcha: { status: 503, type: 'youtube-blocked' },
  'too-many-requests': { status: 503, type: 'youtube-blocked' },
  'po-token': { status: 503, type: 'youtube-blocked' },
  'empty-track': { status: 503, type: 'youtube-blocked' },
  consent: { status: 503, type: 'youtube-blocked' },
  disabled: { status: 422, type: 'captions-disabled' },
  'no-transcript': { status: 422, type: 'captions-disabled' },
  unplayable: { status: 422, type: 'video-unplayable' },
  unavailable: { status: 404, type: 'video-unavailable' },
  'unavailable-page': { status: 404, type: 'video-unavailable' },
  'age-restricted': { status: 422, type: 'age-restricted' },
  hang: { status: 504, type: 'youtube-timeout' },
  garbage: { status: 502, type: 'youtube-bad-response' },
  'server-error': { status: 502, type: 'youtube-bad-response' },
  'huge-body': { status: 502, type: 'youtube-bad-response' },
  redirect: { status: 502, type: 'youtube-bad-response' },
  'music-only': { status: 422, type: 'transcript-empty' },
  'slow-captions': { status: 504, type: 'youtube-timeout' },
} as const satisfies Partial<Record<FakeScenario, { status: number; type: string }>>;

export const FAKE_API_KEY = 'fake-data-api-key';

/** Retry-After the too-many-requests scenario sends. */
export const FAKE_RETRY_AFTER_SECONDS = 120;

export interface FakeRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  scenario: FakeScenario | undefined;
}

export interface FakeYouTube {
  /** Origin to use as YOUTUBE_BASE_URL and YOUTUBE_API_BASE_URL. */
  baseUrl: string;
  /** HTTP requests received so far. */
  readonly requests: number;
  /** TCP connections accepted so far (a refused URL must leave this at 0). */
  readonly connections: number;
  /** Requests that reached the off-site canary the redirect scenario points at (must stay 0). */
  readonly canaryRequests: number;
  readonly log: readonly FakeRequest[];
  /** Forces one scenario for every video ID; `undefined` goes back to the ID mapping. */
  useScenario(scenario: FakeScenario | undefined): void;
  /** Zeroes the counters and the log. */
  reset(): void;
  /**
   * Replaces the manual English caption track of the normal video with a classic-format track
   * (e.g. a prompt-injection or a 3-hour transcript); `undefined` restores the recording.
   */
  setEnglishTrack(xml: string | undefined): void;
  close(): Promise<void>;
}

const files = new Map<string, Buffer>();
function fixture(name: string): Buffer {
  let content = files.get(name);
  if (!content) {
    content = readFileSync(resolve(FIXTURES_DIR, name));
    files.set(name, content);
  }
  return content;
}

const SCENARIO_BY_ID = new Map<string, FakeScenario>(
  Object.entries(FAKE_VIDEO_IDS).map(([scenario, id]) => [id, scenario as FakeScenario]),
);

// Scenarios that differ from `normal` only in their caption track.
const CAPTION_SCENARIOS = new Set<FakeScenario>([
  'srv3',
  'music-only',
  'empty-track',
  'slow-captions',
]);

const INNERTUBE_FILES: Partial<Record<FakeScenario, string>> = {
  normal: 'youtube.innertube.json',
  blocked: 'youtube_request_blocked.innertube.json',
  disabled: 'youtube_transcripts_disabled.innertube.json',
  unplayable: 'youtube_unplayable.innertube.json',
  unavailable: 'youtube_video_unavailable.innertube.json',
  srv3: 'youtube.innertube.json',
  'music-only': 'youtube.innertube.json',
  'empty-track': 'youtube.innertube.json',
  'slow-captions': 'youtube.innertube.json',
};

const WATCH_FILES: Partial<Record<FakeScenario, string>> = {
  normal: 'youtube.html',
  blocked: 'youtube_request_blocked.html',
  captcha: 'youtube_too_many_requests.html',
  'po-token': 'youtube.html',
  consent: 'youtube_consent_page.html',
  disabled: 'youtube_transcripts_disabled.html',
  'no-transcript': 'youtube_no_transcript_available.html',
  unplayable: 'youtube_unplayable.html',
  unavailable: 'youtube_video_unavailable.html',
  'unavailable-page': 'youtube_video_unavailable.html',
  'age-restricted': 'youtube_video_login_required.html',
  srv3: 'youtube.html',
  'music-only': 'youtube.html',
  'empty-track': 'youtube.html',
  'slow-captions': 'youtube.html',
};

// What InnerTube answers when it refuses a client: sends the caller to the watch page.
const INNERTUBE_REFUSAL = JSON.stringify({
  error: { code: 400, message: 'Precondition check failed.', status: 'FAILED_PRECONDITION' },
});

const SYNTHETIC_TRACKS: Record<string, string> = {
  'en/asr':
    '<text start="0" dur="1.5">[Music]</text><text start="1.5" dur="4">hey this is just a test</text>',
  zh: '<text start="0" dur="1.54">嘿，这只是一个测试</text><text start="1.54" dur="4.16">这不是原始字幕</text>',
  de: '<text start="0" dur="1.54">Hallo, das ist nur ein Test</text>',
};

const SRV3_TRACK =
  '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>' +
  '<p t="0" d="1540">Hey, this is just a test</p>' +
  '<p t="1540" d="4160"><s ac="0">this</s><s t="300" ac="0"> is</s><s t="600"> srv3</s></p>' +
  '<p t="5700" d="3239">[Applause] with &amp;amp; entities</p>' +
  '</body></timedtext>';

const MUSIC_ONLY_TRACK =
  '<?xml version="1.0" encoding="utf-8" ?><transcript>' +
  '<text start="0" dur="5">[Music]</text><text start="5" dur="5">♪ ♪</text></transcript>';

function classicTrack(lines: string): string {
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>${lines}</transcript>`;
}

/**
 * Starts the fake YouTube on 127.0.0.1 (random port) and an off-site canary for redirects.
 * `defaultScenario` answers IDs missing from FAKE_VIDEO_IDS (default `unavailable`).
 */
export async function startFakeYouTube(
  options: { defaultScenario?: FakeScenario } = {},
): Promise<FakeYouTube> {
  let forced: FakeScenario | undefined;
  let englishTrack: string | undefined;
  let requests = 0;
  let connections = 0;
  let canaryRequests = 0;
  const log: FakeRequest[] = [];

  const canary = createServer((_request, response) => {
    canaryRequests++;
    response.end('you should not be here');
  });
  const canaryUrl = await listen(canary);

  const scenarioOf = (videoId: string | null): FakeScenario =>
    forced ??
    (videoId ? SCENARIO_BY_ID.get(videoId) : undefined) ??
    options.defaultScenario ??
    'unavailable';

  const server = createServer((request, response) => {
    requests++;
    void handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  server.on('connection', () => {
    connections++;
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake.invalid');
    const body = await readBody(request);
    const entry: FakeRequest = {
      method: request.method ?? 'GET',
      url: url.pathname + url.search,
      scenario: undefined,
    };
    log.push(entry);

    if (request.method === 'POST' && url.pathname === '/youtubei/v1/player') {
      const videoId = videoIdOf(body);
      const scenario = scenarioOf(videoId);
      entry.scenario = scenario;
      if (common(scenario, response)) return;
      const file = INNERTUBE_FILES[scenario];
      if (!file) return send(response, 400, 'application/json', INNERTUBE_REFUSAL);
      let json = fixture(file).toString('utf8');
      // Caption-level scenarios reuse the normal recording; their tracks name their own ID.
      if (CAPTION_SCENARIOS.has(scenario)) {
        json = json.replaceAll('v=GJLlxj_dtq8', `v=${FAKE_VIDEO_IDS[scenario]}`);
      }
      return send(response, 200, 'application/json; charset=UTF-8', json);
    }
    if (request.method === 'GET' && url.pathname === '/watch') {
      const scenario = scenarioOf(url.searchParams.get('v'));
      entry.scenario = scenario;
      if (common(scenario, response)) return;
      const file = WATCH_FILES[scenario] ?? WATCH_FILES.unavailable ?? '';
      return send(response, 200, 'text/html; charset=utf-8', fixture(file));
    }
    if (request.method === 'GET' && url.pathname === '/api/timedtext') {
      const scenario = scenarioOf(url.searchParams.get('v'));
      entry.scenario = scenario;
      if (common(scenario, response)) return;
      // Left unanswered: youtube-transcript swallows this failure, the client must not.
      if (scenario === 'slow-captions') return;
      return send(
        response,
        200,
        'text/xml; charset=UTF-8',
        captionTrack(scenario, url, englishTrack),
      );
    }
    if (request.method === 'GET' && url.pathname === '/youtube/v3/videos') {
      return dataApi(request, url, response);
    }
    send(response, 404, 'text/plain', 'not found');
  }

  /** Behaviours shared by every endpoint; true when the scenario answered. */
  function common(scenario: FakeScenario, response: ServerResponse): boolean {
    switch (scenario) {
      case 'too-many-requests':
        response.setHeader('Retry-After', String(FAKE_RETRY_AFTER_SECONDS));
        send(response, 429, 'text/html', '<html><body>Too Many Requests</body></html>');
        return true;
      case 'hang':
        // Headers never come; the socket is destroyed by close().
        return true;
      case 'garbage':
        send(response, 200, 'application/json', '\u0000\u00ff<<garbage>> {"unterminated": [');
        return true;
      case 'server-error':
        send(response, 500, 'text/html', '<html><body>Internal Server Error</body></html>');
        return true;
      case 'huge-body':
        streamHugeBody(response);
        return true;
      case 'redirect':
        response.setHeader('Location', `${canaryUrl}/steal?from=fake-youtube`);
        send(response, 302, 'text/plain', 'moved');
        return true;
      default:
        return false;
    }
  }

  const baseUrl = await listen(server);
  return {
    baseUrl,
    get requests() {
      return requests;
    },
    get connections() {
      return connections;
    },
    get canaryRequests() {
      return canaryRequests;
    },
    log,
    useScenario(scenario) {
      forced = scenario;
    },
    setEnglishTrack(xml) {
      englishTrack = xml;
    },
    reset() {
      requests = 0;
      connections = 0;
      canaryRequests = 0;
      log.length = 0;
    },
    async close() {
      await Promise.all([stop(server), stop(canary)]);
    },
  };
}

function captionTrack(scenario: FakeScenario, url: URL, englishTrack?: string): string {
  // Real YouTube answers PO-token-gated URLs with an empty 200.
  if (url.searchParams.getAll('exp').some((value) => value.split(',').includes('xpe'))) return '';
  if (scenario === 'empty-track') return '';
  if (scenario === 'srv3') return SRV3_TRACK;
  if (scenario === 'music-only') return MUSIC_ONLY_TRACK;
  const lang = url.searchParams.get('lang') ?? '';
  if (lang === 'en' && url.searchParams.get('kind') !== 'asr') {
    return englishTrack ?? fixture('transcript.xml').toString('utf8');
  }
  const key = url.searchParams.get('kind') === 'asr' ? `${lang}/asr` : lang;
  return classicTrack(
    SYNTHETIC_TRACKS[key] ?? `<text start="0" dur="2">synthetic ${lang} caption track</text>`,
  );
}

function dataApi(request: IncomingMessage, url: URL, response: ServerResponse): void {
  if (request.headers['x-goog-api-key'] !== FAKE_API_KEY) {
    const error = {
      error: { code: 400, message: 'API key not valid. Please pass a valid API key.' },
    };
    send(response, 400, 'application/json', JSON.stringify(error));
    return;
  }
  const items =
    url.searchParams.get('id') === FAKE_VIDEO_IDS.normal
      ? [
          {
            kind: 'youtube#video',
            id: FAKE_VIDEO_IDS.normal,
            snippet: {
              publishedAt: '2018-08-02T13:00:08Z',
              title: 'Surface Go Review - It’s Awesome',
            },
            statistics: { viewCount: '1856200', likeCount: '41000', commentCount: '3500' },
          },
        ]
      : [];
  send(
    response,
    200,
    'application/json; charset=UTF-8',
    JSON.stringify({ kind: 'youtube#videoListResponse', items }),
  );
}

function streamHugeBody(response: ServerResponse): void {
  const chunk = Buffer.alloc(65_536, 0x20);
  let remaining = 4096; // chunks: 256 MiB, far beyond any sane cap
  response.writeHead(200, { 'Content-Type': 'application/json' });
  const pump = () => {
    while (remaining > 0 && !response.destroyed) {
      remaining--;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

function videoIdOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { videoId?: unknown };
    return typeof parsed.videoId === 'string' ? parsed.videoId : null;
  } catch {
    return null;
  }
}

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
): void {
  response.writeHead(status, { 'Content-Type': contentType });
  response.end(body);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

export interface FakeProxy {
  /** Use as YOUTUBE_PROXY_URL. */
  url: string;
  /** `host:port` of every CONNECT tunnel opened, in order. */
  readonly tunnels: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts a minimal HTTP CONNECT proxy (what undici's ProxyAgent speaks). With `credentials`,
 * tunnels without the matching Proxy-Authorization get a 407, as real proxies answer.
 */
export async function startConnectProxy(
  options: { credentials?: { username: string; password: string } } = {},
): Promise<FakeProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`
    : undefined;
  const server = createServer((_request, response) => {
    send(response, 405, 'text/plain', 'this proxy only tunnels (CONNECT)');
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (expected && request.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = request.url ?? '';
    tunnels.push(target);
    const [host, port] = target.split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  const url = await listen(server);
  return {
    url,
    tunnels,
    async close() {
      for (const socket of sockets) socket.destroy();
      await stop(server);
    },
  };
}
