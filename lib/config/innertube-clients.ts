// The InnerTube clients the service asks for a video's caption list, in one table: everything
// YouTube expects of each (context fields, user agent, the X-YouTube-Client-* headers). Modelled
// on yt-dlp's INNERTUBE_CLIENTS (yt_dlp/extractor/youtube/_base.py, commit 81ecd58b of
// 2026-08-21, versions of 2026-07-09); docs/youtube-clients.md gives the evidence for each.
// Only clients that need no JavaScript player are here: caption lists need no signatures. The
// table belongs to the configuration, below YouTube's area, because YOUTUBE_CLIENTS is checked
// against it when the Config is read.

export interface InnerTubeClient {
  /** InnerTube `clientName`, also what YOUTUBE_CLIENTS and `transcript_client` say. */
  name: ClientName;
  /** InnerTube `clientVersion` (YOUTUBE_CLIENTS may override it: `IOS@21.30.2`). */
  version: string;
  /** The numeric client id YouTube expects in `X-YouTube-Client-Name`. */
  id: number;
  userAgent: string;
  /** Further `context.client` fields: device and operating system. */
  context: Readonly<Record<string, string | number>>;
}

interface ClientTemplate {
  version: string;
  id: number;
  userAgent: (version: string) => string;
  context: Readonly<Record<string, string | number>>;
}

const TEMPLATES = {
  ANDROID: {
    version: '21.26.364',
    id: 3,
    userAgent: (v) => `com.google.android.youtube/${v} (Linux; U; Android 11) gzip`,
    context: { androidSdkVersion: 30, osName: 'Android', osVersion: '11' },
  },
  IOS: {
    version: '21.26.4',
    id: 5,
    userAgent: (v) => `com.google.ios.youtube/${v} (iPhone16,2; U; CPU iOS 18_3_2 like Mac OS X;)`,
    context: {
      deviceMake: 'Apple',
      deviceModel: 'iPhone16,2',
      osName: 'iPhone',
      osVersion: '18.3.2.22D82',
    },
  },
  // yt-dlp's first client for visitors without an account since 2026-07.
  VISIONOS: {
    version: '1.02',
    id: 101,
    userAgent: () =>
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 15_7_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15',
    context: {
      deviceMake: 'Apple',
      deviceModel: 'RealityDevice17,1',
      osName: 'visionOS',
      osVersion: '26.5.23O471',
    },
  },
  // Dropped from yt-dlp's defaults on 2026-08-18 because its video streams answer 403; that
  // concerns streams, not caption lists, so it stays available here (not in the default order).
  ANDROID_VR: {
    version: '1.65.10',
    id: 28,
    userAgent: (v) =>
      `com.google.android.apps.youtube.vr.oculus/${v} (Linux; U; Android 12L; eureka-user Build/SQ3A.220605.009.A1) gzip`,
    context: {
      deviceMake: 'Oculus',
      deviceModel: 'Quest 3',
      androidSdkVersion: 32,
      osName: 'Android',
      osVersion: '12L',
    },
  },
} as const satisfies Record<string, ClientTemplate>;

export type ClientName = keyof typeof TEMPLATES;

export const CLIENT_NAMES = Object.keys(TEMPLATES) as readonly ClientName[];

/** The order tried when YOUTUBE_CLIENTS is unset. */
export const DEFAULT_CLIENT_ORDER: readonly ClientName[] = ['ANDROID', 'IOS', 'VISIONOS'];

const VERSION = /^\d{1,4}(?:\.\d{1,10}){1,3}$/;

/** Thrown for a YOUTUBE_CLIENTS value that names no known client or a malformed version. */
export class ClientSpecError extends Error {
  override name = 'ClientSpecError';
}

/** The client of that name, at its own version or the one given. */
export function innerTubeClient(name: ClientName, version?: string): InnerTubeClient {
  const template: ClientTemplate = TEMPLATES[name];
  const chosen = version ?? template.version;
  return {
    name,
    version: chosen,
    id: template.id,
    userAgent: template.userAgent(chosen),
    context: template.context,
  };
}

/**
 * Parses the order to try: comma-separated names, each optionally `NAME@VERSION`
 * (e.g. `IOS@21.30.2,ANDROID`). An empty list means DEFAULT_CLIENT_ORDER.
 * @throws ClientSpecError naming the unknown client or the malformed version.
 */
export function parseClientOrder(items: readonly string[]): InnerTubeClient[] {
  if (items.length === 0) return DEFAULT_CLIENT_ORDER.map((name) => innerTubeClient(name));
  return items.map((item) => {
    const [rawName = '', version, ...rest] = item.split('@');
    const name = rawName.trim().toUpperCase();
    if (!(CLIENT_NAMES as readonly string[]).includes(name)) {
      throw new ClientSpecError(
        `unknown InnerTube client "${rawName.slice(0, 40)}" (known: ${CLIENT_NAMES.join(', ')})`,
      );
    }
    if (rest.length > 0 || (version !== undefined && !VERSION.test(version.trim()))) {
      throw new ClientSpecError(
        `"${item.slice(0, 60)}": a version is digits and dots, e.g. ${name}@${TEMPLATES[name as ClientName].version}`,
      );
    }
    return innerTubeClient(name as ClientName, version?.trim());
  });
}
