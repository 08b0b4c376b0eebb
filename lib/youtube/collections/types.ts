// What a playlist or a channel is, once read: the interface the collection routes build on.
// YouTube's shapes stay in parse.ts and rss.ts; nothing here knows about InnerTube.

export type CollectionKind = 'playlist' | 'channel';

/** What parseCollectionUrl found in a link: a playlist, or a channel by one of its names. */
export type CollectionTarget =
  | { kind: 'playlist'; playlistId: string }
  | {
      kind: 'channel';
      /** `UC…`: known from the link, no look-up needed. */
      channelId?: string;
      /** `@name`, resolved with InnerTube's navigation/resolve_url. */
      handle?: string;
      /** A `/c/name` or `/user/name` link, resolved the same way. */
      legacy?: { type: 'c' | 'user'; name: string };
    };

/** Why an entry cannot be summarized. */
export type SkipReason = 'private' | 'deleted' | 'members-only' | 'unavailable';

export interface CollectionEntry {
  videoId: string;
  title: string;
  /** why it cannot be summarized: 'private' | 'deleted' | 'members-only' | 'unavailable' */
  skipped?: { reason: SkipReason; detail: string };
}

export interface CollectionListing {
  kind: CollectionKind;
  /** playlist id, or the channel's UC… id */
  id: string;
  title: string;
  author: string;
  /** canonical URL: https://www.youtube.com/playlist?list=… or https://www.youtube.com/channel/UC… */
  url: string;
  /** in the source's order (channel: newest first), at most `limit` */
  entries: CollectionEntry[];
  /** 'browse' or 'rss' */
  via: 'browse' | 'rss';
  /** more entries exist than were read (limit reached, or RSS's 15) */
  more: boolean;
}

export interface CollectionLister {
  /**
   * The entries of a playlist, or a channel's latest uploads (newest first), up to `limit`
   * (1-200), following continuation pages until it is reached.
   * @throws HttpError: 422 validation-error (limit), 404 playlist-unavailable |
   * channel-unavailable, 503 youtube-blocked | youtube-unreachable, 502 youtube-bad-response,
   * 504 youtube-timeout.
   */
  list(
    target: CollectionTarget,
    options: { limit: number; signal?: AbortSignal },
  ): Promise<CollectionListing>;
}

/** The most entries one listing returns, and the default. */
export const MAX_COLLECTION_LIMIT = 200;
export const DEFAULT_COLLECTION_LIMIT = 25;
