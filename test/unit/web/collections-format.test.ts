// What the page writes of a collection (web/collections/format.ts): which links are playlists or
// channels, its progress and its videos' states in words, which field a problem is shown by, and
// its Markdown, whose every text (titles, themes, quotes) is escaped and whose only links go to
// YouTube, rendered by a GFM parser that passes raw HTML through.
import { describe, expect, it } from 'vitest';
import type { Collection, Problem } from '../../../web/api';
import {
  collectionFieldOf,
  collectionMarkdown,
  collectionProgress,
  isCollectionUrl,
  videoStatusWords,
} from '../../../web/collections/format';
import { contentsOf, renderMarkdown, tagsOf, targetsOf, visibleText } from '../../support/markdown';

const HOSTILE = 'Evil](javascript:alert(1)) <img src=x onerror=alert(1)>\n# Owned';

type Video = Collection['videos'][number];

const video = (id: string, title: string, status: Video['status'], extra: Partial<Video> = {}) => ({
  video_id: id,
  title,
  url: `https://www.youtube.com/watch?v=${id}`,
  status,
  summary_id: status === 'done' ? `job-${id}` : null,
  reason: null,
  error: null,
  ...extra,
});

const problem = (type: string, detail: string, errors?: Problem['errors']): Problem => ({
  type: `urn:tubesum:problem:${type}`,
  title: 'Problem',
  status: 422,
  detail,
  request_id: 'r',
  ...(errors ? { errors } : {}),
});

function collection(overrides: Partial<Collection> = {}): Collection {
  return {
    id: 'c1',
    kind: 'playlist',
    title: HOSTILE,
    author: '<b>Owner</b> [x](https://evil.example)',
    url: 'https://www.youtube.com/playlist?list=PLWxziGKTUvQFIsbbFcTZz7jOT4TMGnZBh',
    status: 'done',
    progress: { done: 3, total: 3 },
    request: { summary_length: 200, used_model: 'extractive', summary_language: null, limit: 25 },
    more: false,
    videos: [
      video('aaaaaaaaaaa', `First ${HOSTILE}`, 'done'),
      video('bbbbbbbbbbb', 'Second', 'skipped', { reason: 'private' }),
      video('ccccccccccc', 'Third', 'failed', {
        error: problem('captions-disabled', 'This video has no captions.'),
      }),
    ],
    overview: {
      summary: `The whole, in words.\n\n${HOSTILE}`,
      word_count: 12,
      themes: [
        {
          title: `# ${HOSTILE}`,
          summary: 'A theme <script>alert(1)</script>',
          citations: [
            {
              video_id: 'aaaaaaaaaaa',
              start_seconds: 81.2,
              text: 'What is said there ![x](https://evil.example/p.png)',
              url: 'https://www.youtube.com/watch?v=aaaaaaaaaaa&t=81s',
            },
            {
              video_id: 'aaaaaaaaaaa',
              start_seconds: 3,
              text: 'A moment whose link is not YouTube',
              url: 'https://evil.example/watch',
            },
          ],
        },
      ],
      model: 'extractive',
      videos: 1,
      input_tokens: null,
      output_tokens: null,
      generated_at: '2025-01-01T00:00:00Z',
    },
    error: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

describe('isCollectionUrl', () => {
  it.each([
    'https://www.youtube.com/playlist?list=PLWxziGKTUvQFIsbbFcTZz7jOT4TMGnZBh',
    'youtube.com/playlist?list=PLWxziGKTUvQFIsbbFcTZz7jOT4TMGnZBh',
    'https://www.youtube.com/watch?v=py5byOOHZM8&list=PLWxziGKTUvQFIsbbFcTZz7jOT4TMGnZBh',
    'https://youtu.be/py5byOOHZM8?list=OLAK5uy_abcdefghijk',
    'https://m.youtube.com/playlist?list=RDCLAK5uy_abcdefghijk',
    'https://www.youtube.com/playlist?list=RDpy5byOOHZM8',
    'https://www.youtube.com/@creativecommons',
    'https://www.youtube.com/@creativecommons/videos',
    'https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q',
    'https://www.youtube.com/c/creativecommons',
    'https://www.youtube.com/user/creativecommons',
  ])('sends %s to POST /collections', (url) => {
    expect(isCollectionUrl(url)).toBe(true);
  });

  it.each([
    'https://www.youtube.com/watch?v=py5byOOHZM8',
    'https://youtu.be/py5byOOHZM8',
    // A watch link from a mix means its video: the mix itself cannot be read.
    'https://www.youtube.com/watch?v=py5byOOHZM8&list=RDpy5byOOHZM8',
    'https://www.youtube.com/shorts/py5byOOHZM8',
    'https://www.youtube.com/channel',
    'https://example.com/playlist?list=PLWxziGKTUvQFIsbbFcTZz7jOT4TMGnZBh',
    'https://example.com/@someone',
    'py5byOOHZM8',
    '',
  ])('sends %s to POST /summarize', (url) => {
    expect(isCollectionUrl(url)).toBe(false);
  });
});

describe('a collection in words', () => {
  it('counts settled videos, then names the overview step', () => {
    const at = (status: Collection['status'], done: number, total: number) =>
      collectionProgress({ status, progress: { done, total } });
    expect(at('queued', 0, 5)).toEqual({ percent: 0, words: 'Waiting for its turn…' });
    expect(at('running', 2, 5)).toEqual({ percent: 40, words: '2 of 5 videos done…' });
    expect(at('running', 5, 5)).toEqual({
      percent: 100,
      words: 'Making the overview of 5 videos…',
    });
    expect(at('done', 5, 5).words).toBe('Done: 5 of 5 videos.');
    expect(at('cancelled', 1, 5).words).toBe('Cancelled.');
  });

  it('says why a video was skipped or failed', () => {
    const [, skipped, failed] = collection().videos as [Video, Video, Video];
    expect(videoStatusWords(skipped)).toBe('skipped: it is private');
    expect(videoStatusWords(failed)).toBe('failed: This video has no captions.');
    expect(videoStatusWords({ status: 'queued', reason: null, error: null })).toBe('waiting');
  });

  it('shows a problem by the link, the Videos field or the button', () => {
    const url = [{ field: 'url', message: 'must be a playlist' }];
    expect(collectionFieldOf(problem('validation', 'Invalid', url))).toBe('video_url');
    const limit = [{ field: 'limit', message: 'Too big' }];
    expect(collectionFieldOf(problem('validation', 'Invalid', limit))).toBe('limit');
    expect(collectionFieldOf(problem('collection-mix-unsupported', 'A mix'))).toBe('video_url');
    expect(collectionFieldOf(problem('playlist-unavailable', 'Gone'))).toBe('video_url');
    expect(collectionFieldOf(problem('summary-length-unsupported', 'No'))).toBe('summary_length');
    expect(collectionFieldOf(problem('quota-exceeded', 'Needs 25'))).toBeUndefined();
  });
});

describe('collectionMarkdown', () => {
  it('links the collection, the moments and the videos to YouTube, and nothing else', () => {
    const html = renderMarkdown(collectionMarkdown(collection()));
    expect(new Set(targetsOf(html))).toEqual(
      new Set([
        'https://www.youtube.com/playlist?list=PLWxziGKTUvQFIsbbFcTZz7jOT4TMGnZBh',
        'https://www.youtube.com/watch?v=aaaaaaaaaaa&amp;t=81s',
        'https://www.youtube.com/watch?v=aaaaaaaaaaa',
        'https://www.youtube.com/watch?v=bbbbbbbbbbb',
        'https://www.youtube.com/watch?v=ccccccccccc',
      ]),
    );
    expect(new Set(tagsOf(html))).toEqual(new Set(['h1', 'a', 'p', 'h2', 'h3', 'ul', 'li']));
  });

  it('writes each text as the words it is, the citations with their video and time', () => {
    const markdown = collectionMarkdown(collection());
    const text = visibleText(renderMarkdown(markdown));
    expect(text).toContain(HOSTILE.replace('\n', ' '));
    expect(text).toContain('<b>Owner</b> [x](https://evil.example) · playlist of 3 videos');
    expect(text).toContain('1:21 First Evil');
    expect(text).toContain('A theme <script>alert(1)</script>');
    expect(text).toContain('Second (skipped: it is private)');
    expect(markdown).toContain('## Themes');
    expect(markdown.split('\n').filter((line) => line.startsWith('# '))).toHaveLength(1);
  });

  // The page's browser test (test/e2e/collection-card.test.ts) reads a recorded playlist, whose
  // title is harmless: what an uploader can put in one is checked here.
  it('keeps a hostile collection title to its heading, as words, linked to the playlist', () => {
    const benign = collection({
      author: 'A teacher',
      videos: [video('aaaaaaaaaaa', 'First', 'done')],
      overview: null,
    });
    const html = renderMarkdown(collectionMarkdown(benign));

    expect(contentsOf(html, 'h1').map(visibleText)).toEqual([HOSTILE.replace('\n', ' ')]);
    expect(new Set(tagsOf(html))).toEqual(new Set(['h1', 'a', 'p', 'h2', 'ul', 'li']));
    expect(new Set(targetsOf(html))).toEqual(
      new Set([benign.url, 'https://www.youtube.com/watch?v=aaaaaaaaaaa']),
    );
  });

  it('lists the videos alone while there is no overview', () => {
    const markdown = collectionMarkdown(collection({ status: 'running', overview: null }));
    expect(markdown).not.toContain('## Overview');
    expect(markdown).toContain('## Videos');
  });
});
