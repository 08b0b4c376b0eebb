// The audio a transcription downloads: of the audio-only formats a player answer lists, the
// smallest with a direct URL (by contentLength, else bitrate × length), the original track of a
// dubbed video, no dynamic-range-compressed copy; formats behind a signatureCipher counted.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { innerTubeClient } from '../../../../lib/config/innertube-clients';
import { audioOf, durationOf } from '../../../../lib/youtube/audio/audio';
import type { PlayerResponse } from '../../../../lib/youtube/innertube/player';

const android = innerTubeClient('ANDROID');
const recorded = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../fixtures/youtube/${name}`, import.meta.url), 'utf8'),
  ) as PlayerResponse;
const playerWith = (formats: unknown[], lengthSeconds = '600'): PlayerResponse => ({
  playabilityStatus: { status: 'OK' },
  videoDetails: { lengthSeconds },
  streamingData: { adaptiveFormats: formats },
});
const url = (itag: number) => `https://rr1.googlevideo.com/videoplayback?itag=${itag}`;

describe('audioOf', () => {
  it('picks the smallest of the recorded answer’s audio formats (itag 139) and names its client', () => {
    const player = recorded('youtube_transcripts_disabled.innertube.json');

    const audio = audioOf(player, android, durationOf(player));

    expect(audio).toMatchObject({ direct: 5, ciphered: 0 });
    expect(audio.offer).toMatchObject({
      itag: 139,
      bytes: 1_758_945,
      exact: true,
      client: 'ANDROID',
      userAgent: android.userAgent,
      mimeType: 'audio/mp4; codecs="mp4a.40.5"',
    });
  });

  it('leaves out dynamic-range-compressed copies when plain ones exist', () => {
    const player = recorded('youtube.innertube.json');

    const audio = audioOf(player, android, durationOf(player));

    // Ten audio formats, half of them DRC; the DRC itag 139 is a byte smaller than the plain one.
    expect(audio.direct).toBe(5);
    expect(audio.offer).toMatchObject({ itag: 139, bytes: 1_928_949 });
  });

  it('sizes a format without contentLength by its bitrate and the video’s length', () => {
    const audio = audioOf(
      playerWith([
        { itag: 140, url: url(140), mimeType: 'audio/mp4', averageBitrate: 128_000 },
        { itag: 249, url: url(249), mimeType: 'audio/webm', bitrate: 64_000 },
        { itag: 18, url: url(18), mimeType: 'video/mp4', contentLength: '10' },
      ]),
      android,
      600,
    );

    expect(audio.offer).toMatchObject({ itag: 249, bytes: 4_800_000, exact: false });
  });

  it('counts formats that only have a signatureCipher, and offers none of them', () => {
    const audio = audioOf(
      playerWith([
        { itag: 140, signatureCipher: 's=x&url=y', mimeType: 'audio/mp4', contentLength: '5' },
        { itag: 251, cipher: 's=x&url=y', mimeType: 'audio/webm', contentLength: '6' },
      ]),
      android,
      600,
    );

    expect(audio).toEqual({ direct: 0, ciphered: 2 });
  });

  it('takes the original track of a dubbed video, whatever the dubs weigh', () => {
    const audio = audioOf(
      playerWith([
        {
          itag: 249,
          url: url(249),
          mimeType: 'audio/webm',
          contentLength: '100',
          audioTrack: { id: 'de.3', audioIsDefault: false },
        },
        {
          itag: 251,
          url: url(251),
          mimeType: 'audio/webm',
          contentLength: '900',
          audioTrack: { id: 'en.4', audioIsDefault: true },
        },
      ]),
      android,
      600,
    );

    expect(audio.offer).toMatchObject({ itag: 251, language: 'en' });
  });
});
