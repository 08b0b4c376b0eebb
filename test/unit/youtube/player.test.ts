// Classification of the real recorded YouTube answers, without any network.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/http/errors';
import {
  assertPlayable,
  captionTracks,
  extractPlayerResponse,
  isCaptchaPage,
  isConsentPage,
  legacyUnavailableMessage,
  type PlayerResponse,
  parsePlayerJson,
  requiresPoToken,
} from '../../../lib/youtube/player';
import { FIXTURES_DIR } from '../../support/fake-youtube';

const read = (name: string) => readFileSync(resolve(FIXTURES_DIR, name), 'utf8');
const innertube = (name: string): PlayerResponse => {
  const player = parsePlayerJson(read(name));
  if (!player) throw new Error(`${name} is not a player response`);
  return player;
};
const page = (name: string): PlayerResponse => {
  const player = extractPlayerResponse(read(name));
  if (!player) throw new Error(`${name} holds no player response`);
  return player;
};

function thrownBy(action: () => unknown): HttpError {
  try {
    action();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('assertPlayable on recorded answers', () => {
  it.each([
    ['youtube.innertube.json', innertube],
    ['youtube_transcripts_disabled.innertube.json', innertube],
    ['youtube.html', page],
    ['youtube_no_transcript_available.html', page],
  ])('accepts the playable %s', (name, load) => {
    expect(() => assertPlayable(load(name), 300)).not.toThrow();
  });

  it.each([
    ['youtube_request_blocked.innertube.json', innertube, 503, 'youtube-blocked'],
    ['youtube_request_blocked.html', page, 503, 'youtube-blocked'],
    ['youtube_unplayable.innertube.json', innertube, 422, 'video-unplayable'],
    ['youtube_unplayable.html', page, 422, 'video-unplayable'],
    ['youtube_video_unavailable.innertube.json', innertube, 404, 'video-unavailable'],
    ['youtube_transcripts_disabled.html', page, 404, 'video-unavailable'],
    ['youtube_video_login_required.html', page, 422, 'age-restricted'],
  ] as const)('classifies %s as %s %s', (name, load, status, type) => {
    const error = thrownBy(() => assertPlayable(load(name), 300));

    expect(error.status).toBe(status);
    expect(error.type).toBe(type);
  });

  it('reports a bot check as blocked, with the proxy advice and Retry-After', () => {
    const error = thrownBy(() =>
      assertPlayable(innertube('youtube_request_blocked.innertube.json'), 300),
    );

    expect(error.type).not.toBe('captions-disabled');
    expect(error.message).toContain('YOUTUBE_PROXY_URL');
    expect(error.headers['Retry-After']).toBe('300');
    expect(error.extensions.block_reason).toBe('bot-check');
  });

  it('passes on the reason and sub-reasons YouTube gave for an unplayable video', () => {
    const error = thrownBy(() => assertPlayable(innertube('youtube_unplayable.innertube.json'), 1));

    expect(error.extensions.youtube_reason).toBe('Custom Reason (Sub Reason 1 Sub Reason 2)');
    expect(error.message).toContain('Custom Reason');
  });

  it('does not call a CUSTOM status blocked although its error screen mentions a bot', () => {
    const player = innertube('youtube_unplayable.innertube.json');

    expect(JSON.stringify(player.playabilityStatus)).toContain('not a bot');
    expect(thrownBy(() => assertPlayable(player, 1)).type).toBe('video-unplayable');
  });

  it.each([
    ['LOGIN_REQUIRED', 'This video is private', 'video-unavailable'],
    ['AGE_CHECK_REQUIRED', undefined, 'age-restricted'],
    ['LOGIN_REQUIRED', 'Sign in to confirm you’re not a bot', 'youtube-blocked'],
    ['LIVE_STREAM_OFFLINE', 'This live event will begin in 3 hours.', 'video-unplayable'],
    ['UNPLAYABLE', 'Join this channel to get access to members-only content', 'video-unplayable'],
  ])('classifies status %s with reason %j as %s', (status, reason, type) => {
    const player: PlayerResponse = { playabilityStatus: { status, reason } };

    expect(thrownBy(() => assertPlayable(player, 1)).type).toBe(type);
  });
});

describe('captionTracks', () => {
  it('lists the nine recorded tracks of the normal video', () => {
    const tracks = captionTracks(innertube('youtube.innertube.json'));

    expect(
      tracks.map((track) => `${track.languageCode}${track.kind ? `/${track.kind}` : ''}`),
    ).toEqual(['zh', 'cs', 'en', 'en/asr', 'de', 'hi', 'ja', 'ko', 'es']);
  });

  it.each(['youtube_transcripts_disabled.innertube.json'])(
    'says captions are disabled for %s',
    (name) => {
      expect(thrownBy(() => captionTracks(innertube(name))).type).toBe('captions-disabled');
    },
  );

  it('says captions are disabled for the old page without a transcript', () => {
    expect(thrownBy(() => captionTracks(page('youtube_no_transcript_available.html'))).type).toBe(
      'captions-disabled',
    );
  });
});

describe('requiresPoToken', () => {
  it('flags the watch page tracks (exp=xpe) and not the InnerTube ones', () => {
    const watch = captionTracks(page('youtube.html'));
    const android = captionTracks(innertube('youtube.innertube.json'));

    expect(watch.length).toBeGreaterThan(0);
    expect(watch.every(requiresPoToken)).toBe(true);
    expect(android.some(requiresPoToken)).toBe(false);
  });
});

describe('watch page helpers', () => {
  it('recognises the captcha page and only it', () => {
    expect(isCaptchaPage(read('youtube_too_many_requests.html'))).toBe(true);
    expect(isCaptchaPage(read('youtube.html'))).toBe(false);
  });

  it('recognises the consent page and only it', () => {
    expect(isConsentPage(read('youtube_consent_page.html'))).toBe(true);
    expect(isConsentPage(read('youtube.html'))).toBe(false);
  });

  it('reads the message of the old "video does not exist" page', () => {
    const html = read('youtube_video_unavailable.html');

    expect(extractPlayerResponse(html)).toBeUndefined();
    expect(legacyUnavailableMessage(html)).toBe('Dieses Video existiert nicht.');
  });

  it('finds no unavailable message on a playable page', () => {
    expect(legacyUnavailableMessage(read('youtube.html'))).toBeUndefined();
  });

  it('finds the end of the inline player response despite braces inside strings', () => {
    const html =
      '<script>var ytInitialPlayerResponse = {"playabilityStatus":{"status":"OK"},' +
      '"videoDetails":{"shortDescription":"a } tricky { \\" description"}};var other = {};</script>';

    const player = extractPlayerResponse(html);

    expect(player?.videoDetails?.shortDescription).toBe('a } tricky { " description');
  });

  it('rejects an InnerTube answer that is not a player response', () => {
    expect(parsePlayerJson('{"error":{"code":400}}')).toBeUndefined();
    expect(parsePlayerJson('<html>')).toBeUndefined();
  });
});
