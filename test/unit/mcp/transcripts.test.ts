// get_transcript's service with fakes: a cached transcript costs nothing, a lookup that reaches
// YouTube takes a quota unit (kept whatever YouTube answers, given back when the failure is
// ours), and the captions come a page at a time, by their start.
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../../lib/accounts/users/store';
import { ConfigError, TooManyRequestsError, ValidationError } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import { TRANSCRIPT_PAGE_CHARACTERS } from '../../../lib/mcp/schemas';
import { createTranscriptService, pageOf } from '../../../lib/mcp/transcripts';
import { type Cache, videoKey } from '../../../lib/store/cache';
import type { Quota } from '../../../lib/store/quota';
import {
  captionsDisabled,
  youTubeBlocked,
  youTubeTimeout,
  youTubeUnreachable,
} from '../../../lib/youtube/errors';
import type { Video } from '../../../lib/youtube/types';
import { buildLongTranscript, loadSharedMetadata } from '../../support/transcripts';

const user = { id: 'user-1' } as User;
const VIDEO_ID = 'py5byOOHZM8';
const video: Video = {
  metadata: { ...loadSharedMetadata(), video_id: VIDEO_ID, duration_seconds: 4_000 },
  transcript: buildLongTranscript(10_000),
  client: 'ANDROID',
  source: 'captions',
};
const logger = (): Logger => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

function setUp(options: { cached?: Video; fetch?: () => Promise<Video>; quotaLeft?: boolean }) {
  const stored = new Map<string, Video>();
  if (options.cached) stored.set(videoKey(VIDEO_ID, undefined), options.cached);
  const videos: Cache<Video> = {
    get: vi.fn(async (key: string) => stored.get(key)),
    put: vi.fn(async (key: string, value: Video) => {
      stored.set(key, value);
    }),
  };
  const fetchVideo = vi.fn(
    (_id: string, _call?: object): Promise<Video> => (options.fetch ?? (async () => video))(),
  );
  const quota = {
    reservation: vi.fn(),
    reserve: vi.fn(async () => {
      if (options.quotaLeft === false) throw new TooManyRequestsError(60, 'no units left');
      return { day: '2026-11-23' };
    }),
    reserveMany: vi.fn(async () => ({ day: '2026-11-23' })),
    release: vi.fn(async () => undefined),
    forget: vi.fn(async () => undefined),
  } satisfies Quota;
  const service = createTranscriptService({
    videos,
    youtube: async () => ({
      lookUpVideo: async (id: string, call?: object) => ({
        kind: 'video' as const,
        video: await fetchVideo(id, call),
      }),
    }),
    captionless: async (found) => {
      throw found.problem;
    },
    quota,
    logger: logger(),
  });
  const page = (args: Record<string, unknown> = {}) =>
    service.page(user, { video_url: VIDEO_ID, ...args }, { deadlineAt: Date.now() + 5_000 });
  return { page, videos, fetchVideo, quota };
}

describe('the transcript service', () => {
  it('answers a cached transcript without YouTube and without a quota unit', async () => {
    const { page, fetchVideo, quota } = setUp({ cached: video });

    const answer = await page();

    expect(answer.video_id).toBe(VIDEO_ID);
    expect(fetchVideo).not.toHaveBeenCalled();
    expect(quota.reserve).not.toHaveBeenCalled();
  });

  it('takes a unit for a lookup that reaches YouTube, and caches what it got', async () => {
    const { page, fetchVideo, quota, videos } = setUp({});

    await page({ language: 'en' });

    expect(quota.reserve).toHaveBeenCalledWith('user-1');
    expect(fetchVideo).toHaveBeenCalledWith(VIDEO_ID, expect.objectContaining({ language: 'en' }));
    expect(videos.put).toHaveBeenCalledWith(videoKey(VIDEO_ID, 'en'), video);
    expect(quota.release).not.toHaveBeenCalled();
  });

  it('refuses a lookup past the quota before asking YouTube', async () => {
    const { page, fetchVideo } = setUp({ quotaLeft: false });

    await expect(page()).rejects.toMatchObject({ status: 429 });
    expect(fetchVideo).not.toHaveBeenCalled();
  });

  it.each([
    ['a verdict on the video (422)', captionsDisabled()],
    ['YouTube blocking this server (503)', youTubeBlocked('bot-check', 300)],
    ['YouTube too slow (504)', youTubeTimeout()],
  ])('keeps the unit spent after %s', async (_case, error) => {
    const { page, quota } = setUp({ fetch: async () => Promise.reject(error) });

    await expect(page()).rejects.toBe(error);
    expect(quota.release).not.toHaveBeenCalled();
  });

  it.each([
    ['no request reaching YouTube', youTubeUnreachable(false)],
    ['unreadable credentials', new ConfigError('CREDENTIALS_SECRET_ARN is unreadable')],
    ['a bug', new TypeError('oops')],
  ])('gives the unit back after %s', async (_case, error) => {
    const { page, quota } = setUp({ fetch: async () => Promise.reject(error) });

    await expect(page()).rejects.toBe(error);
    expect(quota.release).toHaveBeenCalledWith('user-1', '2026-11-23');
  });

  it('refuses a link that is not YouTube before any lookup', async () => {
    const { page, quota } = setUp({});

    await expect(page({ video_url: 'http://169.254.169.254/' })).rejects.toMatchObject({
      status: 422,
    });
    expect(quota.reserve).not.toHaveBeenCalled();
  });
});

describe('a page of captions', () => {
  const segments = video.transcript.segments;

  it('holds the captions that start within the range, by their start', () => {
    const page = pageOf(video, { video_url: VIDEO_ID, start_seconds: 60, end_seconds: 90 });

    const expected = segments.filter((s) => s.offsetMs >= 60_000 && s.offsetMs < 90_000);
    expect(page.segments.map((s) => s.start_seconds)).toEqual(
      expected.map((s) => s.offsetMs / 1000),
    );
    expect(page).toMatchObject({ truncated: false, next_start_seconds: null, language: 'en' });
  });

  it('stops at the page size, its JSON whole under 25,000 characters, and says where the next page starts', () => {
    const first = pageOf(video, { video_url: VIDEO_ID });
    const byStart = pageOf(video, {
      video_url: VIDEO_ID,
      start_seconds: first.next_start_seconds ?? undefined,
    });
    const byCursor = pageOf(video, { video_url: VIDEO_ID, cursor: first.next_cursor ?? undefined });

    const next = segments[first.segments.length];
    expect(first.truncated).toBe(true);
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(TRANSCRIPT_PAGE_CHARACTERS);
    expect(TRANSCRIPT_PAGE_CHARACTERS).toBeLessThan(25_000);
    // Full: the next caption would not have fitted.
    const withNext = {
      ...first,
      segments: [...first.segments, { start_seconds: 0, text: next?.text }],
    };
    expect(JSON.stringify(withNext).length).toBeGreaterThan(TRANSCRIPT_PAGE_CHARACTERS);
    for (const second of [byStart, byCursor]) {
      expect(second.segments[0]?.start_seconds).toBe(first.next_start_seconds);
      expect(second.segments[0]?.text).toBe(next?.text);
    }
  });

  it('refuses a cursor it did not give, as a bad argument', () => {
    expect(() => pageOf(video, { video_url: VIDEO_ID, cursor: 'bm90LWEtY3Vyc29y' })).toThrow(
      ValidationError,
    );
  });

  it('takes back a start a float’s hair off (a next_start_seconds sent back as text)', () => {
    const at = segments[10]?.offsetMs ?? 0;

    // 0.1 ms late, as `start_seconds * 1000` is for some starts (2.007 * 1000 = 2007.0000000000002).
    const page = pageOf(video, { video_url: VIDEO_ID, start_seconds: at / 1000 + 0.0001 });

    expect(page.segments[0]?.start_seconds).toBe(at / 1000);
  });

  it('cuts a caption longer than a page, and the next page goes on where it was cut', () => {
    const text = 'é“x”\n'.repeat(TRANSCRIPT_PAGE_CHARACTERS);
    const huge = { text, offsetMs: 0, durationMs: 1 };
    const after = { text: 'after', offsetMs: 5_000, durationMs: 1 };
    const long = { ...video, transcript: { ...video.transcript, segments: [huge, after] } };

    const pages = [pageOf(long, { video_url: VIDEO_ID })];
    while (pages.at(-1)?.next_cursor && pages.length < 20) {
      pages.push(pageOf(long, { video_url: VIDEO_ID, cursor: pages.at(-1)?.next_cursor ?? '' }));
    }

    expect(pages[0]?.segments).toHaveLength(1);
    expect(pages[0]?.next_start_seconds).toBe(0);
    for (const page of pages) {
      expect(JSON.stringify(page).length).toBeLessThanOrEqual(TRANSCRIPT_PAGE_CHARACTERS);
    }
    const atZero = pages.flatMap((page) => page.segments.filter((s) => s.start_seconds === 0));
    expect(atZero.map((s) => s.text).join('')).toBe(text);
    expect(pages.at(-1)?.segments.at(-1)).toEqual({ start_seconds: 5, text: 'after' });
    expect(pages.at(-1)?.next_cursor).toBeNull();
  });
});
