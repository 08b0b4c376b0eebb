// The playlists and channels the fake YouTube knows (fake-browse.ts serves them), as data: each
// names the trimmed recordings in test/fixtures/youtube/browse it is answered from, or the
// answer built for it.
//
// Shapes the recordings do not show, each with its source:
// - "This playlist is private." as an ERROR alert: yt-dlp reports browse alerts as the error
//   (_extract_and_report_alerts) and its test of the private PLtPgu7CB4gbY9oDN3drwC3cMbJggS7dKl
//   is skipped with 'This playlist is private' (yt_dlp/extractor/youtube/_tab.py); the alert's
//   shape is that of the recorded "The playlist does not exist." answer.
// - "[Private video]" and "[Deleted video]" entries: the titles NewPipeExtractor tests for
//   (YoutubeStreamInfoItemExtractor.java, isPremium ||… equals("[Private video]")), with
//   `isPlayable: false` and no length or byline; an entry with `unplayableText`: what
//   ytmusicapi's parse_watch_playlist skips rows for. The members-only badge is the recorded
//   one (the UUMO… playlist).
// - A channel whose browse is refused: HTTP 403 (no recording of a refusal exists); its feed is
//   the recorded Kurzgesagt feed, asked by channel_id as the service asks.

export const FAKE_PLAYLISTS = {
  /** 150 videos: a first page of 100 and a continuation page of 50. */
  top150: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr',
  /** A course playlist: 14 videos, one page, a playlistHeaderRenderer. */
  course: 'PLWxziGKTUvQFIsbbFcTZz7jOT4TMGnZBh',
  /** A channel's members-only uploads (recorded, first 4 entries kept). */
  membersOnly: 'UUMOQuLXlFNAeDJMSmuzHU5axw',
  /** The course with private, deleted, unplayable and members-only entries (synthesized). */
  skipped: 'PLskippedEntriesOfTheCourse0000000',
  missing: 'PL11111111111111111111111111111111',
  private: 'PLprivatePlaylistOfTheFake00000000',
  garbage: 'PLgarbageAnswerOfTheFake0000000000',
} as const;

export const FAKE_CHANNELS = {
  /** Creative Commons (@creativecommons): a videos tab of 30 and a next page of 30. */
  creativeCommons: 'UCTwECeGqMZee77BjdoYtI2Q',
  /** Kurzgesagt: browse refused (403), its feed served (15 entries). */
  kurzgesagt: 'UCsXVk37bltHxD1rDPwtNM8Q',
  missing: 'UCAUc4iz6edWerIjlnL8OSSw',
  terminated: 'UCTGjY2I-ZUGnwVoWAGRd7XQ',
} as const;

export type PlaylistSpec =
  | { header: string; pages: readonly string[]; edit?: 'skipped' }
  | { recording: string }
  | { alert: string }
  | 'garbage';

export const PLAYLISTS: Record<string, PlaylistSpec> = {
  [FAKE_PLAYLISTS.top150]: {
    header: 'playlist-top150-header.json',
    pages: ['playlist-top150-page1.json', 'playlist-top150-page2.json'],
  },
  [FAKE_PLAYLISTS.course]: {
    header: 'playlist-course-header.json',
    pages: ['playlist-course-page1.json'],
  },
  [FAKE_PLAYLISTS.membersOnly]: {
    header: 'playlist-members-only-header.json',
    pages: ['playlist-members-only-page1.json'],
  },
  [FAKE_PLAYLISTS.skipped]: {
    header: 'playlist-course-header.json',
    pages: ['playlist-course-page1.json'],
    edit: 'skipped',
  },
  [FAKE_PLAYLISTS.missing]: { recording: 'playlist-does-not-exist.json' },
  [FAKE_PLAYLISTS.private]: { alert: 'This playlist is private.' },
  [FAKE_PLAYLISTS.garbage]: 'garbage',
};

export type ChannelSpec =
  | { page: string }
  | { recording: string }
  | { refuse: number; feed: string };

export const CHANNELS: Record<string, ChannelSpec> = {
  [FAKE_CHANNELS.creativeCommons]: { page: 'channel-videos-page1.json' },
  [FAKE_CHANNELS.kurzgesagt]: { refuse: 403, feed: 'channel-feed-kurzgesagt.json' },
  [FAKE_CHANNELS.missing]: { recording: 'channel-does-not-exist.json' },
  [FAKE_CHANNELS.terminated]: { recording: 'channel-terminated.json' },
};

/** Channel URL paths resolve_url knows; the rest answer the recorded 404. */
export const NAMES: Record<string, string> = {
  '/user/creativecommons': FAKE_CHANNELS.creativeCommons,
  '/c/creativecommons': FAKE_CHANNELS.creativeCommons,
  '/@creativecommons': FAKE_CHANNELS.creativeCommons,
  '/@kurzgesagt': FAKE_CHANNELS.kurzgesagt,
};
