import { describe, expect, it } from 'vitest';
import { HttpError, ValidationError } from '../../../../lib/errors';
import { chooseCaptionTrack, normaliseLanguage } from '../../../../lib/youtube/captions/tracks';
import type { CaptionTrack } from '../../../../lib/youtube/innertube/player';

function track(languageCode: string, kind?: 'asr'): CaptionTrack {
  const kindParam = kind ? `&kind=${kind}` : '';
  return {
    baseUrl: `https://www.youtube.com/api/timedtext?v=GJLlxj_dtq8&lang=${languageCode}${kindParam}`,
    languageCode,
    ...(kind ? { kind } : {}),
  };
}

// The order of the recorded Surface Go review: Chinese first, automatic English after manual.
const RECORDED = [
  track('zh'),
  track('cs'),
  track('en'),
  track('en', 'asr'),
  track('de'),
  track('hi'),
  track('ja'),
  track('ko'),
  track('es'),
];

describe('chooseCaptionTrack', () => {
  it('chooses manual English although Chinese is listed first', () => {
    expect(chooseCaptionTrack(RECORDED)).toEqual(track('en'));
  });

  it('prefers manual captions over automatic ones listed earlier in the same language', () => {
    const tracks = [track('en', 'asr'), track('en')];

    expect(chooseCaptionTrack(tracks)).toEqual(track('en'));
    expect(chooseCaptionTrack(tracks, 'en')).toEqual(track('en'));
  });

  it('prefers a manual track in another language over automatic English', () => {
    expect(chooseCaptionTrack([track('en', 'asr'), track('de'), track('es')])).toEqual(track('de'));
  });

  it('falls back to automatic English when there are only automatic tracks', () => {
    expect(chooseCaptionTrack([track('fr', 'asr'), track('en', 'asr')])).toEqual(
      track('en', 'asr'),
    );
  });

  it('treats regional English as English', () => {
    expect(chooseCaptionTrack([track('fr'), track('en-GB')])).toEqual(track('en-GB'));
  });

  it('uses the requested language regardless of its position', () => {
    expect(chooseCaptionTrack(RECORDED, 'ko')).toEqual(track('ko'));
  });

  it('matches the requested language case-insensitively', () => {
    expect(chooseCaptionTrack([track('pt-BR')], 'PT-br')).toEqual(track('pt-BR'));
  });

  it('prefers the exact regional track over the bare language', () => {
    expect(chooseCaptionTrack([track('pt'), track('pt-BR')], 'pt-BR')).toEqual(track('pt-BR'));
  });

  it('falls back to the primary language when the region is missing', () => {
    expect(chooseCaptionTrack(RECORDED, 'en-US')).toEqual(track('en'));
  });

  it('refuses a language the video lacks and lists the available ones once each', () => {
    let thrown: unknown;
    try {
      chooseCaptionTrack(RECORDED, 'fr');
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(HttpError);
    const error = thrown as HttpError;
    expect(error.status).toBe(422);
    expect(error.type).toBe('transcript-language-unavailable');
    expect(error.extensions.available_languages).toEqual([
      'zh',
      'cs',
      'en',
      'de',
      'hi',
      'ja',
      'ko',
      'es',
    ]);
    expect(error.message).toContain('"fr"');
    expect(error.message).toContain('zh, cs, en');
  });
});

describe('normaliseLanguage', () => {
  it.each([
    ['en', 'en'],
    [' pt-BR ', 'pt-BR'],
    ['zh-Hans', 'zh-Hans'],
    ['fil', 'fil'],
  ])('accepts %j as %j', (input, expected) => {
    expect(normaliseLanguage(input)).toBe(expected);
  });

  it.each(['english', '', 'en_US', '../en', 'e', 'en-', `en-${'x'.repeat(40)}`])(
    'refuses %j as a validation error on the language field',
    (input) => {
      expect(() => normaliseLanguage(input)).toThrow(ValidationError);
    },
  );
});
