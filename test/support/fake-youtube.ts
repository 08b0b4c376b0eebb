// A local node:http server that plays YouTube's origin (and the Data API) from the recorded
// responses in test/fixtures/youtube (MIT, recorded by youtube-transcript-api), plus a CONNECT
// proxy with rotating exits. Point YOUTUBE_BASE_URL (and YOUTUBE_API_BASE_URL) at `baseUrl`.
// Nothing here reaches the internet.
//
// Every scenario is data (SCENARIOS below): what the player endpoint answers to each InnerTube
// client (read from `context.client.clientName` of the request), what the watch page and the
// caption track answer, and what the service must make of it. The video ID picks the scenario;
// `assignScenario` gives one ID its own (e.g. a playlist entry without captions), before
// `useScenario`, which forces one for every other ID; other IDs answer like `unavailable`.
//
// Recordings are served for whichever video is asked about: the recording's own video ID is
// replaced by the requested one. Caption tracks (GET /api/timedtext) are chosen by `v`, `lang`
// and `kind`, and rendered in the format `fmt` asks for (srv3, json3, or the classic format
// without it), all from the same cues: the recorded transcript.xml is the manual English track;
// other languages and the automatic English track are small synthesized tracks. URLs carrying
// `exp=xpe` get the empty 200 real YouTube gives clients without a PO token. The Data API
// (GET /youtube/v3/videos) is synthesized and wants `X-Goog-Api-Key: FAKE_API_KEY`. The audio
// formats of the recordings point at the fake itself, which serves them a range at a time as
// googlevideo.com does (fake-media.ts; `media` logs every request).
//
// Shapes the recordings do not show are built from public evidence, each with its source:
// - HTTP 400 FAILED_PRECONDITION for a retired client version: the error body quoted in
//   lavalink-devs/youtube-source#236 and LuanRT/YouTube.js#926 (2025-2026).
// - playerCaptchaViewModel: yt-dlp looks for it under playabilityStatus.errorScreen
//   (yt_dlp/extractor/youtube/_video.py, PR yt-dlp#12939); FreeTube#7097 shows the UNPLAYABLE
//   "Video unavailable" status that comes with it and the view model's fields.
// - "This content isn't available, try again later": the reason yt-dlp matches (PR
//   yt-dlp#12958); users' logs (e.g. toolforge/video2commons#288) show it as the reason.
// - exp=xpe caption URLs answering an empty 200: youtube-transcript-api#592 (2026) and its
//   ANDROID recording youtube_po_token_required.innertube.json.
// - json3: the {"wireMagic":"pb3","events":[...]} shape of YouTube's json3 tracks, with window
//   events without segs and "aAppend" line-break events between lines.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientName } from '../../lib/config/innertube-clients';
import type { BlockReason } from '../../lib/youtube/errors';
import { createFakeBrowse, type FakeBrowse } from './fake-browse';
import { type AudioEdit, type MediaRequest, rewriteAudio, serveMedia } from './fake-media';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const FIXTURES_DIR = resolve(REPO_ROOT, 'test/fixtures/youtube');

/** Failures of the connection or the HTTP exchange itself, the same on every endpoint. */
type Transport =
  | 'hang'
  | 'garbage'
  | 'server-error'
  | 'huge-body'
  | 'redirect'
  | 'too-many-requests';

/** What the player endpoint answers one client: one answer, or one per request in turn. */
type PlayerAnswer = OneAnswer | { sequence: readonly OneAnswer[] };

type OneAnswer =
  /** 200 with a recorded player response, optionally edited. */
  | { recording: string; edit?: RecordingEdit }
  /** 200 with a player response that holds only this playability status. */
  | { playabilityStatus: Record<string, unknown> }
  /** HTTP 400 FAILED_PRECONDITION: this client (version) is refused. */
  | 'refused'
  | Transport;

interface RecordingEdit {
  /** Added to every caption track URL as `exp=` (the PO-token experiment markers). */
  trackExp?: string;
  /** The caption format every track URL asks for (`fmt=`); null removes it (classic). */
  fmt?: 'srv3' | 'json3' | null;
  /** `videoDetails.videoId` replaced: an answer about another video. */
  videoId?: string;
  /** The audio formats' URLs, sizes and length (fake-media.ts). */
  audio?: AudioEdit;
}

type WatchAnswer =
  | {
      page: string;
      /** The consent page unless the request sends a consent cookie (any). */
      consentUnlessCookie?: true;
      /** The consent page unless the cookie is `CONSENT=YES+` and the value its form names. */
      consentUnlessFormValue?: true;
    }
  | Transport;

/** What the caption track answers; `by-format` renders the track in the format asked for. */
type CaptionAnswer = 'by-format' | 'empty' | 'music-only' | 'hang';

export type ScenarioExpectation =
  | { status: 200; client: ClientName }
  | {
      status: 404 | 422 | 502 | 503 | 504;
      type: string;
      blockReason?: BlockReason;
      detail?: RegExp;
    };

export interface ScenarioSpec {
  /** The video ID that selects it. */
  id: string;
  /** By InnerTube clientName; `*` answers the clients not named. */
  player: Partial<Record<ClientName | '*', PlayerAnswer>>;
  watch?: WatchAnswer;
  /** One answer for every track, or by the client that listed the track (`*`: the others). */
  captions?: CaptionAnswer | Partial<Record<ClientName | '*', CaptionAnswer>>;
  /** What the service must make of it. */
  expect: ScenarioExpectation;
}

const NORMAL = { recording: 'youtube.innertube.json' } as const;
/** A video whose uploader turned captions off (its audio is served, fake-media.ts). */
const CAPTIONS_OFF = 'youtube_transcripts_disabled.innertube.json';
/** The size of the 60-minute video's smallest audio format: 30 MB, as a real one's (~67 kbit/s). */
export const LONG_AUDIO_BYTES = 30 * 1_048_576;
/** The value of the `v` field of the recorded consent page's form. */
const CONSENT_FORM_VALUE = 'cb.20210328-17-p0.de+FX+119';
const NORMAL_PAGE = { page: 'youtube.html' } as const;
const VIDEO_UNAVAILABLE_PAGE = { page: 'youtube_video_unavailable.html' } as const;
const FAILED_PRECONDITION = {
  error: {
    code: 400,
    message: 'Precondition check failed.',
    errors: [
      { message: 'Precondition check failed.', domain: 'global', reason: 'failedPrecondition' },
    ],
    status: 'FAILED_PRECONDITION',
  },
};

export const SCENARIOS = {
  normal: {
    id: 'GJLlxj_dtq8',
    player: { '*': NORMAL },
    expect: { status: 200, client: 'ANDROID' },
  },
  // The recorded ANDROID track URLs ask for srv3; these ask for the other two formats.
  'classic-format': {
    id: 'classic_fmt',
    player: { '*': { ...NORMAL, edit: { fmt: null } } },
    expect: { status: 200, client: 'ANDROID' },
  },
  'json3-format': {
    id: 'json3format',
    player: { '*': { ...NORMAL, edit: { fmt: 'json3' } } },
    expect: { status: 200, client: 'ANDROID' },
  },
  'retired-android': {
    id: 'retiredandr',
    player: { ANDROID: 'refused', '*': NORMAL },
    watch: NORMAL_PAGE,
    expect: { status: 200, client: 'IOS' },
  },
  'android-po-token': {
    id: 'androidxpe0',
    player: { ANDROID: { ...NORMAL, edit: { trackExp: 'xpe' } }, '*': NORMAL },
    watch: NORMAL_PAGE,
    expect: { status: 200, client: 'IOS' },
  },
  'android-no-captions': {
    id: 'androidnocc',
    player: { ANDROID: { recording: 'youtube_transcripts_disabled.innertube.json' }, '*': NORMAL },
    watch: NORMAL_PAGE,
    expect: { status: 200, client: 'IOS' },
  },
  // One client's refusal is not the video's verdict (issue 18): the next client plays it.
  'reload-first': {
    id: 'reloadfirst',
    player: {
      ANDROID: {
        playabilityStatus: { status: 'UNPLAYABLE', reason: 'The page needs to be reloaded.' },
      },
      '*': NORMAL,
    },
    expect: { status: 200, client: 'IOS' },
  },
  'kids-first': {
    id: 'kids_first0',
    player: {
      ANDROID: {
        playabilityStatus: {
          status: 'UNPLAYABLE',
          reason: 'This video is not available on this app.',
        },
      },
      '*': NORMAL,
    },
    expect: { status: 200, client: 'IOS' },
  },
  'unavailable-one-client': {
    id: 'unavail_one',
    player: { ANDROID: { recording: 'youtube_video_unavailable.innertube.json' }, '*': NORMAL },
    expect: { status: 200, client: 'IOS' },
  },
  // The bot check passes on a second try with fresh visitor data (no proxy).
  'bot-check-once': {
    id: 'botcheck_1x',
    player: {
      '*': { sequence: [{ recording: 'youtube_request_blocked.innertube.json' }, NORMAL] },
    },
    expect: { status: 200, client: 'ANDROID' },
  },
  // ANDROID's caption track never comes: IOS's track is downloaded instead.
  'slow-first-track': {
    id: 'slow_track1',
    player: { '*': NORMAL },
    captions: { ANDROID: 'hang', '*': 'by-format' },
    expect: { status: 200, client: 'IOS' },
  },
  // The first two clients never answer: the last one still gets its turn.
  'stalled-clients': {
    id: 'stalled_two',
    player: { ANDROID: 'hang', IOS: 'hang', '*': NORMAL },
    expect: { status: 200, client: 'VISIONOS' },
  },
  blocked: {
    id: 'blocked_bot',
    player: { '*': { recording: 'youtube_request_blocked.innertube.json' } },
    watch: { page: 'youtube_request_blocked.html' },
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'bot-check' },
  },
  'captcha-view-model': {
    id: 'captcha_vm0',
    player: {
      '*': {
        playabilityStatus: {
          status: 'UNPLAYABLE',
          reason: 'Video unavailable',
          errorScreen: {
            playerCaptchaViewModel: {
              challengeReason: { content: "To continue, confirm you're not a robot" },
              captchaLoadingMessage: { content: 'Loading...' },
            },
          },
        },
      },
    },
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'captcha' },
  },
  'try-again-later': {
    id: 'tryagainlat',
    player: {
      '*': {
        playabilityStatus: {
          status: 'UNPLAYABLE',
          reason: "This content isn't available, try again later.",
        },
      },
    },
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'rate-limited' },
  },
  captcha: {
    id: 'captchapage',
    player: { '*': 'refused' },
    watch: { page: 'youtube_too_many_requests.html' },
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'captcha' },
  },
  'too-many-requests': {
    id: 'toomany_429',
    player: { '*': 'too-many-requests' },
    watch: 'too-many-requests',
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'rate-limited' },
  },
  'po-token': {
    id: 'potokenpage',
    player: { '*': { ...NORMAL, edit: { trackExp: 'xpe' } } },
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'po-token-required' },
  },
  'empty-track': {
    id: 'emptytrack0',
    player: { '*': NORMAL },
    captions: 'empty',
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'po-token-required' },
  },
  // The watch page insists on consent unless the request says it was given (the cookie).
  consent: {
    id: 'consentpage',
    player: { '*': 'refused' },
    watch: { ...VIDEO_UNAVAILABLE_PAGE, consentUnlessCookie: true },
    expect: { status: 404, type: 'video-unavailable' },
  },
  // The consent page although the usual cookies were sent: answered with its own form's value.
  'consent-form': {
    id: 'consentform',
    player: { '*': 'refused' },
    watch: { ...VIDEO_UNAVAILABLE_PAGE, consentUnlessFormValue: true },
    expect: { status: 404, type: 'video-unavailable' },
  },
  'consent-stuck': {
    id: 'consentstck',
    player: { '*': 'refused' },
    watch: { page: 'youtube_consent_page.html' },
    expect: { status: 503, type: 'youtube-blocked', blockReason: 'consent-required' },
  },
  'all-refused': {
    id: 'allrefused0',
    player: { '*': 'refused' },
    watch: NORMAL_PAGE,
    expect: {
      status: 502,
      type: 'youtube-bad-response',
      detail:
        /ANDROID [\d.]+: HTTP 400; IOS [\d.]+: HTTP 400; VISIONOS [\d.]+: HTTP 400.*YOUTUBE_CLIENTS/,
    },
  },
  'other-video': {
    id: 'othervideo0',
    player: { '*': { ...NORMAL, edit: { videoId: 'dQw4w9WgXcQ' } } },
    expect: { status: 502, type: 'youtube-bad-response', detail: /another video \(dQw4w9WgXcQ\)/ },
  },
  disabled: {
    id: 'no_captions',
    player: { '*': { recording: 'youtube_transcripts_disabled.innertube.json' } },
    watch: { page: 'youtube_transcripts_disabled.html' },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'no-transcript': {
    id: 'notrackpage',
    player: { '*': 'refused' },
    watch: { page: 'youtube_no_transcript_available.html' },
    expect: { status: 422, type: 'captions-disabled' },
  },
  unplayable: {
    id: 'unplayable_',
    player: { '*': { recording: 'youtube_unplayable.innertube.json' } },
    watch: { page: 'youtube_unplayable.html' },
    expect: { status: 422, type: 'video-unplayable' },
  },
  unavailable: {
    id: 'unavailable',
    player: { '*': { recording: 'youtube_video_unavailable.innertube.json' } },
    watch: VIDEO_UNAVAILABLE_PAGE,
    expect: { status: 404, type: 'video-unavailable' },
  },
  'unavailable-page': {
    id: 'unavailpage',
    player: { '*': 'refused' },
    watch: VIDEO_UNAVAILABLE_PAGE,
    expect: { status: 404, type: 'video-unavailable' },
  },
  'age-restricted': {
    id: 'agerestrict',
    player: { '*': 'refused' },
    watch: { page: 'youtube_video_login_required.html' },
    expect: { status: 422, type: 'age-restricted' },
  },
  hang: {
    id: 'hangforever',
    player: { '*': 'hang' },
    watch: 'hang',
    expect: { status: 504, type: 'youtube-timeout' },
  },
  garbage: {
    id: 'garbagebody',
    player: { '*': 'garbage' },
    watch: 'garbage',
    expect: { status: 502, type: 'youtube-bad-response' },
  },
  'server-error': {
    id: 'servererror',
    player: { '*': 'server-error' },
    watch: 'server-error',
    expect: { status: 502, type: 'youtube-bad-response' },
  },
  'huge-body': {
    id: 'hugebodyxxl',
    player: { '*': 'huge-body' },
    watch: 'huge-body',
    expect: { status: 502, type: 'youtube-bad-response' },
  },
  redirect: {
    id: 'redirectout',
    player: { '*': 'redirect' },
    watch: 'redirect',
    expect: { status: 502, type: 'youtube-bad-response' },
  },
  'music-only': {
    id: 'musiconly00',
    player: { '*': NORMAL },
    captions: 'music-only',
    expect: { status: 422, type: 'transcript-empty' },
  },
  'slow-captions': {
    id: 'slowcaption',
    player: { '*': NORMAL },
    captions: 'hang',
    expect: { status: 504, type: 'youtube-timeout' },
  },
  // Videos without captions whose audio is served in other ways (fake-media.ts): what the
  // service answers without a transcription backend is each one's 422.
  'no-captions-long': {
    id: 'nocaption60',
    player: {
      '*': {
        recording: CAPTIONS_OFF,
        edit: { audio: { lengthSeconds: 3_600, smallestBytes: LONG_AUDIO_BYTES } },
      },
    },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'no-captions-28mb': {
    id: 'nocaption28',
    player: {
      '*': {
        recording: CAPTIONS_OFF,
        edit: { audio: { lengthSeconds: 1_200, smallestBytes: 28 * 1_048_576 } },
      },
    },
    expect: { status: 422, type: 'captions-disabled' },
  },
  // A 3-hour talk: ~70 MB of itag 249 (Opus in WebM), its only audio format.
  'no-captions-3h': {
    id: 'nocaption3h',
    player: {
      '*': {
        recording: CAPTIONS_OFF,
        edit: { audio: { lengthSeconds: 10_800, smallestBytes: 70 * 1_048_576, itags: [249] } },
      },
    },
    expect: { status: 422, type: 'captions-disabled' },
  },
  // Audio whose index does not read (made-up bytes where the player says the ranges are): small
  // enough for one upload, and too large for one.
  'index-garbage': {
    id: 'indexgarbag',
    player: { '*': { recording: CAPTIONS_OFF, edit: { audio: { unindexed: 'garbage' } } } },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'index-garbage-26mb': {
    id: 'indexgarb26',
    player: {
      '*': {
        recording: CAPTIONS_OFF,
        edit: {
          audio: { lengthSeconds: 1_200, smallestBytes: 26 * 1_048_576, unindexed: 'garbage' },
        },
      },
    },
    expect: { status: 422, type: 'captions-disabled' },
  },
  // Speech a test encodes and serves (fake-media.ts serveAudioFile), in one format each.
  'speech-webm': {
    id: 'speechwebm0',
    player: { '*': { recording: CAPTIONS_OFF, edit: { audio: { itags: [249] } } } },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'speech-mp4': {
    id: 'speechmp4a0',
    player: { '*': { recording: CAPTIONS_OFF, edit: { audio: { itags: [139] } } } },
    expect: { status: 422, type: 'captions-disabled' },
  },
  // 25.5 MB that cannot be cut (no index ranges): more than a 25 MB upload takes.
  'no-captions-25mb': {
    id: 'nocaption25',
    player: {
      '*': {
        recording: CAPTIONS_OFF,
        edit: {
          audio: { lengthSeconds: 1_200, smallestBytes: 25.5 * 1_048_576, unindexed: 'no-ranges' },
        },
      },
    },
    expect: { status: 422, type: 'captions-disabled' },
  },
  // The player says 7 MB; the media server serves 28 MB.
  'no-captions-understated': {
    id: 'nocaptionli',
    player: {
      '*': {
        recording: CAPTIONS_OFF,
        edit: { audio: { lengthSeconds: 1_200, smallestBytes: 28 * 1_048_576, understate: 4 } },
      },
    },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'audio-foreign': {
    id: 'audioforgn0',
    player: { '*': { recording: CAPTIONS_OFF, edit: { audio: { host: 'foreign' } } } },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'audio-foreign-first': {
    id: 'audioforgn1',
    player: {
      ANDROID: { recording: CAPTIONS_OFF, edit: { audio: { host: 'foreign' } } },
      '*': { recording: CAPTIONS_OFF },
    },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'audio-redirect-foreign': {
    id: 'audioredir0',
    player: { '*': { recording: CAPTIONS_OFF, edit: { audio: { redirectForeign: true } } } },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'audio-refused-first': {
    id: 'audio403and',
    player: { '*': { recording: CAPTIONS_OFF, edit: { audio: { refuse: ['ANDROID'] } } } },
    expect: { status: 422, type: 'captions-disabled' },
  },
  'audio-cipher-only': {
    id: 'audiocipher',
    player: { '*': { recording: CAPTIONS_OFF, edit: { audio: { cipherOnly: true } } } },
    expect: { status: 422, type: 'captions-disabled' },
  },
} as const satisfies Record<string, ScenarioSpec>;

export type FakeScenario = keyof typeof SCENARIOS;

/** The video ID of each scenario. */
export const FAKE_VIDEO_IDS = Object.fromEntries(
  Object.entries(SCENARIOS).map(([name, spec]) => [name, spec.id]),
) as { [name in FakeScenario]: (typeof SCENARIOS)[name]['id'] };

/** Every scenario with its name, as `it.each` rows. */
export const SCENARIO_CASES = Object.entries(SCENARIOS as Record<FakeScenario, ScenarioSpec>).map(
  ([name, spec]) => ({ name, ...spec }),
);

/** The scenarios that must end in a problem, with its status and type. */
export const EXPECTED_PROBLEMS = Object.fromEntries(
  Object.entries(SCENARIOS as Record<FakeScenario, ScenarioSpec>).flatMap(([name, spec]) =>
    spec.expect.status === 200 ? [] : [[name, spec.expect]],
  ),
) as Partial<Record<FakeScenario, Exclude<ScenarioExpectation, { status: 200 }>>>;

export const FAKE_API_KEY = 'fake-data-api-key';

/** Retry-After the too-many-requests scenario sends. */
export const FAKE_RETRY_AFTER_SECONDS = 120;

export interface FakeRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  scenario: FakeScenario | undefined;
  /** For player requests: the client as the body and the headers name it. */
  client?: {
    name: string;
    version: string;
    headerName?: string;
    headerVersion?: string;
    /** `context.client.visitorData` and the `X-Goog-Visitor-Id` header. */
    visitorData?: string;
    visitorHeader?: string;
  };
  cookie?: string;
  userAgent?: string;
  acceptLanguage?: string;
  /** For visitor_id requests: the visitor data handed out. */
  handedOut?: string;
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
  /** Requests of the media server (`/videoplayback`), with their ranges. */
  readonly media: readonly MediaRequest[];
  /** Visitor data handed out so far (visitor_id answers and player answers). */
  readonly visitors: readonly string[];
  /** Forces one scenario for every video ID; `undefined` goes back to the ID mapping. */
  useScenario(scenario: FakeScenario | undefined): void;
  /**
   * Answers `videoId` with `scenario` whatever `useScenario` forces (e.g. one video of a
   * playlist whose others are all `normal`); `undefined` undoes it.
   */
  assignScenario(videoId: string, scenario: FakeScenario | undefined): void;
  /** Zeroes the counters and the log. */
  reset(): void;
  /**
   * Replaces the manual English caption track (of every scenario) with a classic-format track
   * (e.g. a prompt injection or a 3-hour transcript); `undefined` restores the recording.
   */
  setEnglishTrack(xml: string | undefined): void;
  /**
   * Replaces the description and the length of every video the player endpoint describes (e.g.
   * a description that lists chapters, a 3-hour talk); `undefined` restores the recording's.
   */
  setVideoDetails(details: VideoDetails | undefined): void;
  /** Playlists and channels: browse, resolve_url and the feeds (fake-browse.ts). */
  readonly browse: FakeBrowse;
  close(): Promise<void>;
}

/** What setVideoDetails can change of a player response's videoDetails. */
export interface VideoDetails {
  description?: string;
  lengthSeconds?: number;
}

const files = new Map<string, string>();
function fixture(name: string): string {
  let content = files.get(name);
  if (content === undefined) {
    content = readFileSync(resolve(FIXTURES_DIR, name), 'utf8');
    files.set(name, content);
  }
  return content;
}

const SCENARIO_BY_ID = new Map<string, FakeScenario>(
  Object.entries(SCENARIOS).map(([name, spec]) => [spec.id, name as FakeScenario]),
);

/** A cue of a caption track: times in milliseconds, text as XML content (escaped). */
interface Cue {
  startMs: number;
  durationMs: number;
  xml: string;
}

const SYNTHETIC_TRACKS: Record<string, string> = {
  'en/asr':
    '<text start="0" dur="1.5">[Music]</text><text start="1.5" dur="4">hey this is just a test</text>',
  zh: '<text start="0" dur="1.54">嘿，这只是一个测试</text><text start="1.54" dur="4.16">这不是原始字幕</text>',
  de: '<text start="0" dur="1.54">Hallo, das ist nur ein Test</text>',
};

/** Status, content type and body of the transport failures that answer at all. */
const TRANSPORT_ANSWERS: Record<
  Exclude<Transport, 'hang' | 'huge-body'>,
  [number, string, string]
> = {
  'too-many-requests': [429, 'text/html', '<html><body>Too Many Requests</body></html>'],
  garbage: [200, 'application/json', '\u0000\u00ff<<garbage>> {"unterminated": ['],
  'server-error': [500, 'text/html', '<html><body>Internal Server Error</body></html>'],
  redirect: [302, 'text/plain', 'moved'],
};

const MUSIC_ONLY = '<text start="0" dur="5">[Music]</text><text start="5" dur="5">♪ ♪</text>';

/** The cues of a classic-format track. */
function cuesOf(classic: string): Cue[] {
  return [...classic.matchAll(/<text start="([^"]*)" dur="([^"]*)"[^>]*>([\s\S]*?)<\/text>/g)].map(
    ([, start, dur, xml]) => ({
      startMs: Math.round(Number(start) * 1000),
      durationMs: Math.round(Number(dur) * 1000),
      xml: xml ?? '',
    }),
  );
}

const unescapeXml = (xml: string) =>
  xml
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/** A track in the format its URL asks for; the classic one as given when it is a recording. */
function render(classic: string, fmt: string | null): string {
  if (fmt === 'srv3') {
    const paragraphs = cuesOf(classic).map(
      (c) => `<p t="${c.startMs}" d="${c.durationMs}">${c.xml}</p>`,
    );
    return `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>${paragraphs.join('')}</body></timedtext>`;
  }
  if (fmt === 'json3') {
    const events: unknown[] = [
      { tStartMs: 0, dDurationMs: 3_600_000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
    ];
    for (const cue of cuesOf(classic)) {
      if (events.length > 1)
        events.push({ tStartMs: cue.startMs, aAppend: 1, wWinId: 1, segs: [{ utf8: '\n' }] });
      events.push({
        tStartMs: cue.startMs,
        dDurationMs: cue.durationMs,
        wWinId: 1,
        segs: [{ utf8: unescapeXml(cue.xml) }],
      });
    }
    return JSON.stringify({
      wireMagic: 'pb3',
      pens: [{}],
      wsWinStyles: [{}],
      wpWinPositions: [{}],
      events,
    });
  }
  return classic.includes('<transcript')
    ? classic
    : `<?xml version="1.0" encoding="utf-8" ?><transcript>${classic}</transcript>`;
}

/**
 * A recorded player response for `videoId`, edited as the scenario says; its caption URLs name
 * the client that asked (`c=`, as YouTube's do), and it hands out `visitorData`.
 */
function playerResponse(
  answer: { recording: string; edit?: RecordingEdit },
  videoId: string,
  client: string,
  visitorData: string,
  media: { origin: string; foreign: string },
  details: VideoDetails = {},
) {
  const recording = fixture(answer.recording);
  const recordedId = (JSON.parse(recording) as { videoDetails?: { videoId?: string } }).videoDetails
    ?.videoId;
  const json = JSON.parse(
    recordedId ? recording.replaceAll(recordedId, videoId) : recording,
  ) as Record<string, unknown> & {
    videoDetails?: { videoId?: string; shortDescription?: string; lengthSeconds?: string };
    captions?: { playerCaptionsTracklistRenderer?: { captionTracks?: { baseUrl: string }[] } };
  };
  const edit = answer.edit ?? {};
  for (const track of json.captions?.playerCaptionsTracklistRenderer?.captionTracks ?? []) {
    const url = new URL(track.baseUrl);
    if (edit.trackExp) url.searchParams.set('exp', edit.trackExp);
    if (edit.fmt === null) url.searchParams.delete('fmt');
    else if (edit.fmt) url.searchParams.set('fmt', edit.fmt);
    url.searchParams.set('c', client);
    track.baseUrl = url.href;
  }
  if (edit.videoId && json.videoDetails) json.videoDetails.videoId = edit.videoId;
  rewriteAudio(
    json as Parameters<typeof rewriteAudio>[0],
    { ...media, videoId, client },
    edit.audio,
  );
  if (json.videoDetails && details.description !== undefined) {
    json.videoDetails.shortDescription = details.description;
  }
  if (json.videoDetails && details.lengthSeconds !== undefined) {
    json.videoDetails.lengthSeconds = String(details.lengthSeconds);
  }
  json.responseContext = { ...(json.responseContext as object), visitorData };
  return JSON.stringify(json);
}

/**
 * Starts the fake YouTube on 127.0.0.1 (random port) and an off-site canary for redirects.
 * `defaultScenario` answers IDs missing from SCENARIOS (default `unavailable`).
 */
export async function startFakeYouTube(
  options: { defaultScenario?: FakeScenario } = {},
): Promise<FakeYouTube> {
  let forced: FakeScenario | undefined;
  const assigned = new Map<string, FakeScenario>();
  let englishTrack: string | undefined;
  let videoDetails: VideoDetails | undefined;
  let requests = 0;
  let connections = 0;
  let canaryRequests = 0;
  const log: FakeRequest[] = [];
  const media: MediaRequest[] = [];
  const visitors: string[] = [];
  const browse = createFakeBrowse();
  /** Player requests so far per scenario, video and client (for `sequence` answers). */
  const asked = new Map<string, number>();
  const newVisitor = () => {
    const visitor = `CgtWaXNpdG9y${String(visitors.length).padStart(4, '0')}${Math.random().toString(36).slice(2, 10)}`;
    visitors.push(visitor);
    return visitor;
  };

  const canary = createServer((_request, response) => {
    canaryRequests++;
    response.end('you should not be here');
  });
  const canaryUrl = await listen(canary);

  const scenarioOf = (videoId: string | null): FakeScenario =>
    (videoId ? assigned.get(videoId) : undefined) ??
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
      cookie: request.headers.cookie,
      userAgent: header(request, 'user-agent'),
      acceptLanguage: header(request, 'accept-language'),
    };
    log.push(entry);

    // Visitor data for a visitor without an account (NewPipeExtractor, YouTube.js).
    if (request.method === 'POST' && url.pathname === '/youtubei/v1/visitor_id') {
      entry.handedOut = newVisitor();
      const answer = { responseContext: { visitorData: entry.handedOut } };
      return send(response, 200, 'application/json; charset=UTF-8', JSON.stringify(answer));
    }

    if (request.method === 'POST' && url.pathname === '/youtubei/v1/player') {
      const { videoId, client } = playerRequestOf(body);
      entry.client = {
        ...client,
        headerName: header(request, 'x-youtube-client-name'),
        headerVersion: header(request, 'x-youtube-client-version'),
        visitorHeader: header(request, 'x-goog-visitor-id'),
      };
      const scenario = scenarioOf(videoId);
      entry.scenario = scenario;
      const spec: ScenarioSpec = SCENARIOS[scenario];
      const planned = spec.player[client.name as ClientName] ?? spec.player['*'] ?? 'refused';
      const turn = `${scenario}/${videoId}/${client.name}`;
      const count = asked.get(turn) ?? 0;
      asked.set(turn, count + 1);
      const answer =
        typeof planned === 'object' && 'sequence' in planned
          ? (planned.sequence[Math.min(count, planned.sequence.length - 1)] as OneAnswer)
          : planned;
      if (typeof answer === 'string') {
        if (answer === 'refused') {
          return send(response, 400, 'application/json', JSON.stringify(FAILED_PRECONDITION));
        }
        return transport(answer, response);
      }
      const json =
        'recording' in answer
          ? playerResponse(
              answer,
              videoId ?? '',
              client.name,
              newVisitor(),
              {
                // As a server builds its URLs: from the Host asked for (a proxy's exit, too).
                origin: request.headers.host ? `http://${request.headers.host}` : baseUrl,
                foreign: canaryUrl,
              },
              videoDetails,
            )
          : JSON.stringify({ playabilityStatus: answer.playabilityStatus });
      return send(response, 200, 'application/json; charset=UTF-8', json);
    }
    if (request.method === 'GET' && url.pathname === '/watch') {
      const scenario = scenarioOf(url.searchParams.get('v'));
      entry.scenario = scenario;
      const watch: WatchAnswer =
        (SCENARIOS[scenario] as ScenarioSpec).watch ?? VIDEO_UNAVAILABLE_PAGE;
      if (typeof watch === 'string') return transport(watch, response);
      const cookie = request.headers.cookie ?? '';
      const consented = watch.consentUnlessFormValue
        ? cookie.includes(`CONSENT=YES+${CONSENT_FORM_VALUE}`)
        : !watch.consentUnlessCookie || /\b(SOCS|CONSENT)=/.test(cookie);
      const page = consented ? watch.page : 'youtube_consent_page.html';
      return send(response, 200, 'text/html; charset=utf-8', fixture(page));
    }
    if (request.method === 'GET' && url.pathname === '/api/timedtext') {
      const scenario = scenarioOf(url.searchParams.get('v'));
      entry.scenario = scenario;
      const planned = (SCENARIOS[scenario] as ScenarioSpec).captions ?? 'by-format';
      const byClient = url.searchParams.get('c') as ClientName | null;
      const captions =
        typeof planned === 'string'
          ? planned
          : ((byClient ? planned[byClient] : undefined) ?? planned['*'] ?? 'by-format');
      // Left unanswered: the client's own deadline must end it.
      if (captions === 'hang') return;
      return send(
        response,
        200,
        'text/xml; charset=UTF-8',
        captionTrack(captions, url, englishTrack),
      );
    }
    if (request.method === 'GET' && url.pathname === '/videoplayback') {
      const scenario = scenarioOf(url.searchParams.get('v'));
      entry.scenario = scenario;
      const edit = audioEditOf(SCENARIOS[scenario], url.searchParams.get('c') ?? '');
      return serveMedia(request, url, response, edit, canaryUrl, media);
    }
    if (request.method === 'GET' && url.pathname === '/youtube/v3/videos') {
      return dataApi(request, url, response);
    }
    if (browse.serve(request, url, body, response)) return;
    send(response, 404, 'text/plain', 'not found');
  }

  /** Transport failures, alike on every endpoint. */
  function transport(kind: Transport, response: ServerResponse): void {
    if (kind === 'hang') return; // headers never come; the socket is destroyed by close()
    if (kind === 'huge-body') {
      streamHugeBody(response);
      return;
    }
    if (kind === 'too-many-requests') {
      response.setHeader('Retry-After', String(FAKE_RETRY_AFTER_SECONDS));
    }
    if (kind === 'redirect') response.setHeader('Location', `${canaryUrl}/steal?from=fake-youtube`);
    const [status, type, body] = TRANSPORT_ANSWERS[kind];
    send(response, status, type, body);
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
    visitors,
    log,
    media,
    browse,
    useScenario(scenario) {
      forced = scenario;
    },
    assignScenario(videoId, scenario) {
      if (scenario === undefined) assigned.delete(videoId);
      else assigned.set(videoId, scenario);
    },
    setEnglishTrack(xml) {
      englishTrack = xml;
    },
    setVideoDetails(details) {
      videoDetails = details;
    },
    reset() {
      requests = 0;
      connections = 0;
      canaryRequests = 0;
      log.length = 0;
      media.length = 0;
      visitors.length = 0;
      asked.clear();
      browse.reset();
    },
    async close() {
      await Promise.all([stop(server), stop(canary)]);
    },
  };
}

/** The audio edit of the recording a scenario answers `client` with (none: served as is). */
function audioEditOf(spec: ScenarioSpec, client: string): AudioEdit {
  const planned = spec.player[client as ClientName] ?? spec.player['*'];
  const answers =
    typeof planned === 'object' && 'sequence' in planned ? planned.sequence : [planned];
  for (const answer of answers) {
    if (typeof answer === 'object' && 'recording' in answer && answer.edit?.audio) {
      return answer.edit.audio;
    }
  }
  return {};
}

function captionTrack(answer: CaptionAnswer, url: URL, englishTrack?: string): string {
  // Real YouTube answers PO-token-gated URLs with an empty 200.
  if (url.searchParams.getAll('exp').some((value) => value.split(',').includes('xpe'))) return '';
  if (answer === 'empty') return '';
  const fmt = url.searchParams.get('fmt');
  if (answer === 'music-only') return render(MUSIC_ONLY, fmt);
  const lang = url.searchParams.get('lang') ?? '';
  const asr = url.searchParams.get('kind') === 'asr';
  if (lang === 'en' && !asr) return render(englishTrack ?? fixture('transcript.xml'), fmt);
  const key = asr ? `${lang}/asr` : lang;
  return render(
    SYNTHETIC_TRACKS[key] ?? `<text start="0" dur="2">synthetic ${lang} caption track</text>`,
    fmt,
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

/** The video and the client a player request names. */
function playerRequestOf(body: string): {
  videoId: string | null;
  client: { name: string; version: string; visitorData?: string };
} {
  try {
    const parsed = JSON.parse(body) as {
      videoId?: unknown;
      context?: {
        client?: { clientName?: unknown; clientVersion?: unknown; visitorData?: unknown };
      };
    };
    const visitorData = parsed.context?.client?.visitorData;
    return {
      videoId: typeof parsed.videoId === 'string' ? parsed.videoId : null,
      client: {
        name: String(parsed.context?.client?.clientName ?? ''),
        version: String(parsed.context?.client?.clientVersion ?? ''),
        ...(typeof visitorData === 'string' ? { visitorData } : {}),
      },
    };
  } catch {
    return { videoId: null, client: { name: '', version: '' } };
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
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
  /** `host:port` of every CONNECT tunnel asked for, in order. */
  readonly tunnels: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts a minimal HTTP CONNECT proxy (what undici's ProxyAgent speaks). With `credentials`,
 * tunnels without the matching Proxy-Authorization get a 407, as real proxies answer. With
 * `exits`, it behaves like a rotating residential proxy: each new connection leaves through the
 * next exit (tunnel n goes to exits[n], the last exit once they run out, or to `exits(n)`),
 * whatever was asked.
 */
export async function startConnectProxy(
  options: {
    credentials?: { username: string; password: string };
    /** The exits in turn, or the exit of the nth tunnel. */
    exits?: readonly string[] | ((tunnel: number) => string);
  } = {},
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
    const asked = request.url ?? '';
    const exits = options.exits ?? [];
    const target =
      typeof exits === 'function'
        ? exits(tunnels.length)
        : exits.length > 0
          ? (exits[Math.min(tunnels.length, exits.length - 1)] ?? asked)
          : asked;
    tunnels.push(asked);
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
