// Classification of the real recorded YouTube answers, without any network.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../../../lib/errors';
import {
  extractPlayerResponse,
  isCaptchaPage,
  isConsentPage,
  judgePlayer,
  legacyUnavailableMessage,
  listCaptionTracks,
  type PlayerResponse,
  parsePlayerJson,
  requiresPoToken,
} from '../../../../lib/youtube/innertube/player';
import { FIXTURES_DIR } from '../../../support/fake-youtube';

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

/** The verdict a player response gives the client that asked (an HttpError it stands for). */
function verdictOf(player: PlayerResponse): HttpError {
  const verdict = judgePlayer(player);
  if (verdict.kind !== 'verdict') throw new Error(`no verdict but ${verdict.kind}`);
  return verdict.error;
}

describe('judgePlayer on recorded answers', () => {
  it('lists the nine recorded tracks of the normal video', () => {
    const verdict = judgePlayer(innertube('youtube.innertube.json'), 'GJLlxj_dtq8');

    expect(verdict.kind).toBe('captions');
    const tracks = verdict.kind === 'captions' ? verdict.tracks : [];
    expect(
      tracks.map((track) => `${track.languageCode}${track.kind ? `/${track.kind}` : ''}`),
    ).toEqual(['zh', 'cs', 'en', 'en/asr', 'de', 'hi', 'ja', 'ko', 'es']);
  });

  it.each([
    ['youtube_transcripts_disabled.innertube.json', innertube],
    ['youtube_no_transcript_available.html', page],
  ])('says %s is playable without captions', (name, load) => {
    expect(judgePlayer(load(name))).toEqual({ kind: 'no-captions' });
  });

  it.each([
    ['youtube_request_blocked.innertube.json', innertube],
    ['youtube_request_blocked.html', page],
  ])('reads the bot check of %s as a block, never as "no captions"', (name, load) => {
    expect(judgePlayer(load(name))).toEqual({ kind: 'blocked', reason: 'bot-check' });
  });

  it.each([
    ['youtube_unplayable.innertube.json', innertube, 422, 'video-unplayable'],
    ['youtube_unplayable.html', page, 422, 'video-unplayable'],
    ['youtube_video_unavailable.innertube.json', innertube, 404, 'video-unavailable'],
    ['youtube_transcripts_disabled.html', page, 404, 'video-unavailable'],
    ['youtube_video_login_required.html', page, 422, 'age-restricted'],
  ] as const)('gives the verdict on %s: %s %s', (name, load, status, type) => {
    const error = verdictOf(load(name));

    expect(error.status).toBe(status);
    expect(error.type).toBe(type);
  });

  it('passes on the reason and sub-reasons YouTube gave for an unplayable video', () => {
    const error = verdictOf(innertube('youtube_unplayable.innertube.json'));

    expect(error.extensions.youtube_reason).toBe('Custom Reason (Sub Reason 1 Sub Reason 2)');
    expect(error.message).toContain('Custom Reason');
  });

  it('does not call a CUSTOM status blocked although its error screen mentions a bot', () => {
    const player = innertube('youtube_unplayable.innertube.json');

    expect(JSON.stringify(player.playabilityStatus)).toContain('not a bot');
    expect(verdictOf(player).type).toBe('video-unplayable');
  });

  it('refuses the answer about another video (never summarised), but not on a watch page', () => {
    const player = innertube('youtube.innertube.json');

    expect(judgePlayer(player, 'dQw4w9WgXcQ')).toEqual({
      kind: 'other-video',
      videoId: 'GJLlxj_dtq8',
    });
    expect(judgePlayer(player).kind).toBe('captions');
  });
});

describe('judgePlayer on the statuses YouTube documents only by example', () => {
  it.each([
    ['LOGIN_REQUIRED', 'This video is private', 'video-unavailable'],
    ['AGE_CHECK_REQUIRED', undefined, 'age-restricted'],
    ['LIVE_STREAM_OFFLINE', 'This live event will begin in 3 hours.', 'video-unplayable'],
    ['UNPLAYABLE', 'Join this channel to get access to members-only content', 'video-unplayable'],
  ])('gives status %s with reason %j the verdict %s', (status, reason, type) => {
    const player: PlayerResponse = { playabilityStatus: { status, reason } };

    expect(verdictOf(player).type).toBe(type);
  });

  // yt-dlp (yt_dlp/extractor/youtube/_video.py) reads these as session blocks.
  it.each([
    [
      'a captcha view model under errorScreen',
      {
        status: 'UNPLAYABLE',
        reason: 'Video unavailable',
        errorScreen: { playerCaptchaViewModel: {} },
      },
      'captcha',
    ],
    [
      'a captcha view model inside playerErrorMessageRenderer',
      {
        status: 'UNPLAYABLE',
        errorScreen: { playerErrorMessageRenderer: { playerCaptchaViewModel: {} } },
      },
      'captcha',
    ],
    [
      '"try again later" as the reason',
      { status: 'UNPLAYABLE', reason: "This content isn't available, try again later." },
      'rate-limited',
    ],
    [
      '"try again later" as the sub-reason of an ERROR',
      {
        status: 'ERROR',
        reason: 'Video unavailable',
        errorScreen: {
          playerErrorMessageRenderer: {
            subreason: { runs: [{ text: "This content isn't available, try again later." }] },
          },
        },
      },
      'rate-limited',
    ],
    [
      'the bot check',
      { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' },
      'bot-check',
    ],
  ])('reads %s as a block (%s)', (_label, playabilityStatus, reason) => {
    expect(judgePlayer({ playabilityStatus } as PlayerResponse)).toEqual({
      kind: 'blocked',
      reason,
    });
  });
});

describe('requiresPoToken', () => {
  it('flags the watch page tracks (exp=xpe) and not the InnerTube ones', () => {
    const watch = listCaptionTracks(page('youtube.html'));
    const android = listCaptionTracks(innertube('youtube.innertube.json'));

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
