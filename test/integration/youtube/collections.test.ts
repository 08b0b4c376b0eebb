// Listing playlists and channels end to end over HTTP, against the fake YouTube replaying the
// recorded browse answers (fake-browse.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/errors';
import { createCollectionLister } from '../../../lib/youtube/collections/browse';
import { VIDEOS_TAB_PARAMS } from '../../../lib/youtube/collections/requests';
import type { CollectionTarget } from '../../../lib/youtube/collections/types';
import { parseCollectionUrl } from '../../../lib/youtube/collections/url';
import { failure } from '../../support/errors';
import { FAKE_CHANNELS, FAKE_PLAYLISTS } from '../../support/fake-browse';
import { type FakeYouTube, startFakeYouTube } from '../../support/fake-youtube';

let fake: FakeYouTube;
let lister: ReturnType<typeof createCollectionLister>;

beforeAll(async () => {
  fake = await startFakeYouTube();
  lister = createCollectionLister({ baseUrl: fake.baseUrl, timeoutMs: 20_000 });
});
afterAll(async () => {
  await lister.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const playlist = (playlistId: string): CollectionTarget => ({ kind: 'playlist', playlistId });
const channel = (channelId: string): CollectionTarget => ({ kind: 'channel', channelId });
const browses = () => fake.browse.log.filter((request) => request.endpoint === 'browse');

describe('a playlist', () => {
  it('reads 150 entries across its continuation page, in order', async () => {
    const listing = await lister.list(playlist(FAKE_PLAYLISTS.top150), { limit: 200 });

    expect(listing).toMatchObject({
      kind: 'playlist',
      id: FAKE_PLAYLISTS.top150,
      title: "TOP 150 Songs 2026 - List of Best Music 2026 (Today's Hits Playlist)",
      author: 'Redlist - Chart Playlists',
      url: `https://www.youtube.com/playlist?list=${FAKE_PLAYLISTS.top150}`,
      via: 'browse',
      more: false,
    });
    expect(listing.entries).toHaveLength(150);
    expect(new Set(listing.entries.map((entry) => entry.videoId)).size).toBe(150);
    expect(listing.entries.every((entry) => entry.title !== '' && !entry.skipped)).toBe(true);
    expect(browses().map((request) => request.browseId ?? 'continuation')).toEqual([
      `VL${FAKE_PLAYLISTS.top150}`,
      'continuation',
    ]);
  });

  it('asks as the web client the recordings show', async () => {
    await lister.list(playlist(FAKE_PLAYLISTS.course), { limit: 5 });

    expect(fake.browse.log[0]).toMatchObject({
      clientName: 'WEB',
      clientVersion: '2.20260519.10.00',
      headerName: '1',
    });
  });

  it('keeps the order of both pages where they meet', async () => {
    const whole = await lister.list(playlist(FAKE_PLAYLISTS.top150), { limit: 150 });
    fake.reset();

    const cut = await lister.list(playlist(FAKE_PLAYLISTS.top150), { limit: 101 });

    expect(cut.entries).toEqual(whole.entries.slice(0, 101));
    expect(cut.more).toBe(true);
    expect(browses()).toHaveLength(2);
  });

  it('stops asking for pages once the limit is reached', async () => {
    const listing = await lister.list(playlist(FAKE_PLAYLISTS.top150), { limit: 30 });

    expect(listing.entries).toHaveLength(30);
    expect(listing.more).toBe(true);
    expect(browses()).toHaveLength(1);
  });

  it('reads a course playlist with its header', async () => {
    const listing = await lister.list(playlist(FAKE_PLAYLISTS.course), { limit: 25 });

    expect(listing).toMatchObject({
      title: 'C++ Template Metaprogramming',
      author: 'BitsOfQ',
      more: false,
    });
    expect(listing.entries).toHaveLength(14);
  });

  it('lists private, deleted, unplayable and members-only entries as skipped', async () => {
    const listing = await lister.list(playlist(FAKE_PLAYLISTS.skipped), { limit: 25 });

    const reasons = listing.entries.map((entry) => entry.skipped?.reason ?? null);
    expect(reasons.slice(0, 8)).toEqual([
      null,
      'private',
      null,
      'deleted',
      null,
      'unavailable',
      null,
      'members-only',
    ]);
    expect(listing.entries[5]?.skipped?.detail).toContain('Video unavailable');
    expect(listing.entries).toHaveLength(14);
  });

  it('reads the members-only badge of a recorded members-only list', async () => {
    const listing = await lister.list(playlist(FAKE_PLAYLISTS.membersOnly), { limit: 25 });

    expect(listing.entries.length).toBeGreaterThan(0);
    expect(listing.entries.every((entry) => entry.skipped?.reason === 'members-only')).toBe(true);
  });

  it.each([
    [FAKE_PLAYLISTS.missing, /does not exist: "The playlist does not exist\."/],
    [FAKE_PLAYLISTS.private, /is private: "This playlist is private\."/],
  ])('answers 404 playlist-unavailable for %s', async (id, detail) => {
    const error = await failure(lister.list(playlist(id), { limit: 25 }));

    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, type: 'playlist-unavailable' });
    expect((error as Error).message).toMatch(detail);
  });

  it('answers 502 for an answer that is not JSON', async () => {
    const error = await failure(lister.list(playlist(FAKE_PLAYLISTS.garbage), { limit: 25 }));

    expect(error).toMatchObject({ status: 502, type: 'youtube-bad-response' });
  });
});

describe('a channel', () => {
  it('lists its videos tab newest first', async () => {
    const listing = await lister.list(channel(FAKE_CHANNELS.creativeCommons), { limit: 25 });

    expect(listing).toMatchObject({
      kind: 'channel',
      id: FAKE_CHANNELS.creativeCommons,
      title: 'Creative Commons',
      url: `https://www.youtube.com/channel/${FAKE_CHANNELS.creativeCommons}`,
      via: 'browse',
      more: true,
    });
    expect(listing.entries).toHaveLength(25);
    expect(listing.entries[0]).toEqual({
      videoId: 'BD-LB23rRBE',
      title:
        'Expert Panel III: Global Perspectives on Open Heritage and Diversity, Inclusion, and Sustainability',
    });
    expect(browses()).toEqual([
      expect.objectContaining({
        browseId: FAKE_CHANNELS.creativeCommons,
        params: VIDEOS_TAB_PARAMS,
      }),
    ]);
  });

  it('follows its next page', async () => {
    const listing = await lister.list(channel(FAKE_CHANNELS.creativeCommons), { limit: 45 });

    expect(listing.entries).toHaveLength(45);
    expect(listing.entries[30]?.videoId).toBe('CIFHx7_z3Vc');
    expect(browses()).toHaveLength(2);
  });

  it.each([
    [{ handle: '@creativecommons' }, 'https://www.youtube.com/@creativecommons'],
    [
      { legacy: { type: 'user', name: 'creativecommons' } },
      'https://www.youtube.com/user/creativecommons',
    ],
  ] as const)('resolves %j with resolve_url', async (name, url) => {
    const listing = await lister.list({ kind: 'channel', ...name }, { limit: 5 });

    expect(listing.id).toBe(FAKE_CHANNELS.creativeCommons);
    expect(fake.browse.log[0]).toMatchObject({ endpoint: 'resolve_url', target: url });
  });

  it('answers 404 for a handle nobody has', async () => {
    const error = await failure(
      lister.list({ kind: 'channel', handle: '@nobody-here' }, { limit: 5 }),
    );

    expect(error).toMatchObject({ status: 404, type: 'channel-unavailable' });
  });

  it.each([
    [FAKE_CHANNELS.missing, /does not exist/],
    [FAKE_CHANNELS.terminated, /was removed: "This account has been terminated/],
  ])('answers 404 channel-unavailable for %s', async (id, detail) => {
    const error = await failure(lister.list(channel(id), { limit: 5 }));

    expect(error).toMatchObject({ status: 404, type: 'channel-unavailable' });
    expect((error as Error).message).toMatch(detail);
  });

  it('falls back to its feed when browse is refused', async () => {
    const listing = await lister.list(channel(FAKE_CHANNELS.kurzgesagt), { limit: 25 });

    expect(listing).toMatchObject({
      id: FAKE_CHANNELS.kurzgesagt,
      title: 'Kurzgesagt – In a Nutshell',
      author: 'Kurzgesagt – In a Nutshell',
      via: 'rss',
      more: true,
    });
    expect(listing.entries).toHaveLength(15);
    expect(listing.entries[0]).toEqual({
      videoId: 'zg40FHOAqC0',
      title: 'Jupiter Made Earth Possible',
    });
    expect(fake.browse.log.map((request) => request.endpoint)).toEqual(['browse', 'feed']);
  });

  it.each([429, 500] as const)(
    'falls back to the feed after HTTP %i too, within the limit',
    async (status) => {
      fake.browse.override(status);

      const listing = await lister.list(channel(FAKE_CHANNELS.kurzgesagt), { limit: 5 });

      expect(listing.via).toBe('rss');
      expect(listing.entries).toHaveLength(5);
    },
  );

  it('answers the refusal when the feed fails too', async () => {
    fake.browse.override(403);

    const error = await failure(lister.list(channel(FAKE_CHANNELS.creativeCommons), { limit: 5 }));

    expect(error).toMatchObject({ status: 502, type: 'youtube-bad-response' });
    expect((error as Error).message).toContain('HTTP 403');
  });

  it('does not fall back on an answer it cannot read', async () => {
    fake.browse.override('garbage');

    const error = await failure(lister.list(channel(FAKE_CHANNELS.kurzgesagt), { limit: 5 }));

    expect(error).toMatchObject({ status: 502, type: 'youtube-bad-response' });
    expect(fake.browse.log.map((request) => request.endpoint)).toEqual(['browse']);
  });
});

describe('what is refused before any request', () => {
  it('refuses a mix with 422 collection-mix-unsupported', () => {
    const error = (() => {
      try {
        return parseCollectionUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=RDdQw4w9WgXcQ');
      } catch (thrown) {
        return thrown;
      }
    })();

    expect(error).toMatchObject({ status: 422, type: 'collection-mix-unsupported' });
    expect(fake.requests).toBe(0);
  });

  it.each([0, 201, 2.5])('refuses a limit of %s', async (limit) => {
    const error = await failure(lister.list(playlist(FAKE_PLAYLISTS.course), { limit }));

    expect(error).toMatchObject({ status: 422, type: 'validation-error' });
    expect(fake.requests).toBe(0);
  });
});
