import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractPlayerResponse, parsePlayerJson } from '../../../lib/youtube/innertube/player';
import { metadataFromPlayer, withDataApiDetails } from '../../../lib/youtube/metadata';
import { transcriptLanguageSchema, videoMetadataSchema } from '../../../lib/youtube/schema';
import { FIXTURES_DIR } from '../../support/fake-youtube';

const read = (name: string) => readFileSync(resolve(FIXTURES_DIR, name), 'utf8');

describe('metadataFromPlayer', () => {
  it('reads the recorded InnerTube answer of the normal video', () => {
    const player = parsePlayerJson(read('youtube.innertube.json')) ?? {};

    const metadata = metadataFromPlayer(player, 'GJLlxj_dtq8');

    expect(metadata).toEqual({
      video_id: 'GJLlxj_dtq8',
      title: 'Surface Go Review - It’s Awesome',
      channel_title: 'Dave2D',
      channel_id: 'UCVYamHliCI9rw1tHR1xbkfw',
      duration_seconds: 316,
      view_count: 1856109,
      description: expect.stringContaining('Dave2D review of the Microsoft Surface Go'),
      thumbnail_url: 'https://i.ytimg.com/vi/GJLlxj_dtq8/sddefault.jpg',
      published_at: null,
      like_count: null,
      comment_count: null,
    });
    expect(videoMetadataSchema.parse(metadata)).toEqual(metadata);
  });

  it('takes the publish date from the watch page microformat', () => {
    const player = extractPlayerResponse(read('youtube.html')) ?? {};

    expect(metadataFromPlayer(player, 'GJLlxj_dtq8').published_at).toBe(
      '2018-08-02T06:00:08-07:00',
    );
  });

  it('ignores thumbnails outside ytimg.com and falls back to the standard one', () => {
    const player = {
      videoDetails: {
        thumbnail: { thumbnails: [{ url: 'https://evil.tld/x.jpg', width: 9999 }] },
      },
    };

    expect(metadataFromPlayer(player, 'GJLlxj_dtq8').thumbnail_url).toBe(
      'https://i.ytimg.com/vi/GJLlxj_dtq8/hqdefault.jpg',
    );
  });

  it('turns missing or malformed numbers into null', () => {
    const player = { videoDetails: { lengthSeconds: 'soon', viewCount: '-3' } };

    const metadata = metadataFromPlayer(player, 'GJLlxj_dtq8');

    expect(metadata.duration_seconds).toBeNull();
    expect(metadata.view_count).toBeNull();
    expect(metadata.title).toBe('');
  });
});

describe('withDataApiDetails', () => {
  it('adds counts and the exact publish time, keeping the rest', () => {
    const base = metadataFromPlayer(
      parsePlayerJson(read('youtube.innertube.json')) ?? {},
      'GJLlxj_dtq8',
    );

    const merged = withDataApiDetails(base, {
      publishedAt: '2018-08-02T13:00:08Z',
      likeCount: 41000,
      commentCount: 3500,
    });

    expect(merged).toEqual({
      ...base,
      like_count: 41000,
      comment_count: 3500,
      published_at: '2018-08-02T13:00:08Z',
    });
  });
});

describe('schemas', () => {
  it('refuses metadata whose video ID is not 11 characters', () => {
    const result = videoMetadataSchema.safeParse({
      video_id: 'short',
      title: '',
      channel_title: '',
      channel_id: '',
      duration_seconds: null,
      view_count: null,
      description: '',
      thumbnail_url: null,
      published_at: null,
      like_count: null,
      comment_count: null,
    });

    expect(result.success).toBe(false);
  });

  it('accepts language tags and refuses words', () => {
    expect(transcriptLanguageSchema.safeParse('pt-BR').success).toBe(true);
    expect(transcriptLanguageSchema.safeParse('english').success).toBe(false);
  });
});
