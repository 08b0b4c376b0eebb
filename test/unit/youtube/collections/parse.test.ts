// Reading browse answers and the channel feed: the recorded shapes, and what is made of odd ones.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  channelInfoOf,
  errorAlertOf,
  pageOf,
  playlistInfoOf,
  textOf,
} from '../../../../lib/youtube/collections/parse';
import { parseFeed } from '../../../../lib/youtube/collections/rss';

const DIR = resolve(fileURLToPath(import.meta.url), '../../../../fixtures/youtube/browse');
const answer = (name: string) =>
  (JSON.parse(readFileSync(resolve(DIR, name), 'utf8')) as { answer: Record<string, unknown> })
    .answer;

describe('pageOf', () => {
  it('reads a recorded playlist page: 100 entries and the token of the next', () => {
    const page = pageOf(answer('playlist-top150-page1.json'));

    expect(page.listed).toBe(true);
    expect(page.entries).toHaveLength(100);
    expect(page.entries[0]?.videoId).toMatch(/^[\w-]{11}$/);
    expect(page.continuation).toMatch(/^4qmFsg/);
  });

  it('reads the last page: entries and no token', () => {
    const page = pageOf(answer('playlist-top150-page2.json'));

    expect(page.entries).toHaveLength(50);
    expect(page.continuation).toBeUndefined();
  });

  it("reads a channel's videos tab: lockupViewModels, newest first", () => {
    const page = pageOf(answer('channel-videos-page1.json'));

    expect(page.entries).toHaveLength(30);
    expect(page.entries[0]).toEqual({
      videoId: 'BD-LB23rRBE',
      title:
        'Expert Panel III: Global Perspectives on Open Heritage and Diversity, Inclusion, and Sustainability',
    });
    expect(page.continuation).toBeDefined();
  });

  it('reads the recorded members-only badge', () => {
    const page = pageOf(answer('playlist-members-only-page1.json'));

    expect(page.entries[0]?.skipped).toEqual({
      reason: 'members-only',
      detail: "Only the channel's paying members can watch it.",
    });
  });

  it('marks a members-only lockup as NewPipe and yt-dlp read it', () => {
    const lockup = {
      contentId: 'x3pS1_qqtIs',
      contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
      metadata: {
        lockupMetadataViewModel: {
          title: { content: 'Daily Linux News' },
          metadata: {
            contentMetadataViewModel: {
              metadataRows: [
                { badges: [{ badgeViewModel: { badgeStyle: 'BADGE_MEMBERS_ONLY' } }] },
              ],
            },
          },
        },
      },
    };
    const shorts = { richItemRenderer: { content: { shortsLockupViewModel: {} } } };
    const items = [{ richItemRenderer: { content: { lockupViewModel: lockup } } }, shorts];

    const page = pageOf({
      onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: items } }],
    });

    expect(page.entries).toEqual([
      expect.objectContaining({
        videoId: 'x3pS1_qqtIs',
        skipped: expect.objectContaining({ reason: 'members-only' }),
      }),
    ]);
  });

  it('says when an answer holds no list at all', () => {
    expect(pageOf({ responseContext: {} }).listed).toBe(false);
  });

  it('skips items whose video ID is not one', () => {
    const items = [
      { playlistVideoRenderer: { videoId: '../../evil', title: { simpleText: 'x' } } },
    ];

    const page = pageOf({
      onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: items } }],
    });

    expect(page.entries).toEqual([]);
  });
});

describe('headers and alerts', () => {
  it("reads a playlist's title and owner from the page header's by-line", () => {
    expect(playlistInfoOf(answer('playlist-top150-header.json'))).toEqual({
      title: "TOP 150 Songs 2026 - List of Best Music 2026 (Today's Hits Playlist)",
      author: 'Redlist - Chart Playlists',
    });
  });

  it("reads a course's title and owner from its playlistHeaderRenderer", () => {
    expect(playlistInfoOf(answer('playlist-course-header.json'))).toEqual({
      title: 'C++ Template Metaprogramming',
      author: 'BitsOfQ',
    });
  });

  it("reads a channel's ID and title", () => {
    expect(channelInfoOf(answer('channel-videos-page1.json'))).toEqual({
      id: 'UCTwECeGqMZee77BjdoYtI2Q',
      title: 'Creative Commons',
    });
  });

  it.each([
    ['playlist-does-not-exist.json', 'The playlist does not exist.'],
    ['playlist-unviewable.json', 'This playlist type is unviewable.'],
    ['channel-does-not-exist.json', 'This channel does not exist.'],
  ])('reads the ERROR alert of %s', (file, text) => {
    expect(errorAlertOf(answer(file))).toBe(text);
  });

  it('ignores alerts that are not errors', () => {
    expect(
      errorAlertOf({ alerts: [{ alertRenderer: { type: 'INFO', text: { simpleText: 'hi' } } }] }),
    ).toBeUndefined();
  });

  it.each([
    ['plain', 'plain'],
    [{ simpleText: 'simple' }, 'simple'],
    [{ runs: [{ text: 'a' }, { text: 'b' }] }, 'ab'],
    [{ content: 'view model' }, 'view model'],
    [{ other: 1 }, undefined],
  ])('reads the text of %j', (value, text) => {
    expect(textOf(value)).toBe(text);
  });
});

describe('parseFeed', () => {
  it('reads the recorded feed: its title, author and 15 entries newest first', () => {
    const feed = parseFeed(answer('channel-feed-kurzgesagt.json') as unknown as string);

    expect(feed.title).toBe('Kurzgesagt – In a Nutshell');
    expect(feed.author).toBe('Kurzgesagt – In a Nutshell');
    expect(feed.entries).toHaveLength(15);
    expect(feed.entries[0]).toEqual({
      videoId: 'zg40FHOAqC0',
      title: 'Jupiter Made Earth Possible',
    });
  });

  it('decodes entities in titles', () => {
    const xml =
      '<feed><title>A &amp; B</title><entry><yt:videoId>dQw4w9WgXcQ</yt:videoId><title>Q&amp;A &#39;live&#39;</title></entry></feed>';

    expect(parseFeed(xml).entries).toEqual([{ videoId: 'dQw4w9WgXcQ', title: "Q&A 'live'" }]);
    expect(parseFeed(xml).title).toBe('A & B');
  });

  it('answers 502 for a page that is not a feed', () => {
    expect(() => parseFeed('<html>consent</html>')).toThrow(
      expect.objectContaining({ status: 502, type: 'youtube-bad-response' }),
    );
  });
});
