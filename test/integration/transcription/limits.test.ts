// What bounds a transcription, over HTTP: the video's length (TRANSCRIPTION_MAX_MINUTES), the
// audio's size (TRANSCRIPTION_MAX_MB, and TRANSCRIPTION_MAX_UPLOAD_MB of the backend) are
// refused before any download, and the minutes transcribed for a user each day
// (TRANSCRIPTION_DAILY_MINUTES) stop a user at the budget, given back as a summary's unit is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';
import { startTranscriptionStub, type TranscriptionStub } from '../../support/transcription-stub';

let stt: TranscriptionStub;
beforeAll(async () => {
  stt = await startTranscriptionStub();
});
afterAll(() => stt?.close());

const summarize = (env: SummarizeEnv, video: string, token = env.token) =>
  env.host.request('POST', '/summarize', { json: { video_url: video }, token });

describe('limits checked before any download', () => {
  let env: SummarizeEnv;
  beforeAll(async () => {
    env = await startSummarizeEnv({
      TRANSCRIPTION_BASE_URL: stt.baseUrl,
      // A transcription adds a download and an upload: answers wait for it (no wall-clock bound).
      SUMMARIZE_WAIT_MS: '25000',
      TRANSCRIPTION_MAX_MINUTES: '30',
      TRANSCRIPTION_MAX_MB: '27',
      TRANSCRIPTION_MAX_UPLOAD_MB: '25',
    });
  });
  afterAll(() => env?.close());

  it.each([
    [
      'a 60-minute video',
      'no-captions-long',
      'video-too-long-to-transcribe',
      /60 minutes long.*at most 30 minutes \(TRANSCRIPTION_MAX_MINUTES\)/,
    ],
    [
      '28 MB of audio',
      'no-captions-28mb',
      'transcription-too-large',
      /28\.0 MB: this service downloads at most 27 MB \(TRANSCRIPTION_MAX_MB\)/,
    ],
    [
      '25.5 MB of audio that cannot be cut (no index)',
      'no-captions-25mb',
      'transcription-too-large',
      /25\.5 MB: the transcription service takes at most 25 MB \(TRANSCRIPTION_MAX_UPLOAD_MB\)/,
    ],
  ] as const)(
    'refuses %s with a 422, before any download',
    async (_what, scenario, type, detail) => {
      env.youtube.reset();
      stt.reset();

      const answer = await summarize(env, FAKE_VIDEO_IDS[scenario]);

      expect(answer.status, answer.text).toBe(422);
      expect(answer.body.type).toBe(`urn:tubesum:problem:${type}`);
      expect(answer.body.detail).toMatch(detail);
      expect(env.youtube.media).toHaveLength(0);
      expect(stt.requests).toHaveLength(0);
    },
  );

  it('refuses a video whose length the player does not say (a live one says 0) with a 422, before any download or charge', async () => {
    env.youtube.reset();
    stt.reset();
    env.youtube.setVideoDetails({ lengthSeconds: 0 });

    const answer = await summarize(env, FAKE_VIDEO_IDS.disabled).finally(() =>
      env.youtube.setVideoDetails(undefined),
    );

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.type).toBe('urn:tubesum:problem:video-too-long-to-transcribe');
    expect(answer.body.detail).toMatch(/of unknown length.*at most 30 minutes/);
    expect(env.youtube.media).toHaveLength(0);
    expect(stt.requests).toHaveLength(0);
  });

  it('refuses audio whose index does not read and that is larger than one upload, after reading only its index', async () => {
    env.youtube.reset();
    stt.reset();

    const answer = await summarize(env, FAKE_VIDEO_IDS['index-garbage-26mb']);

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.type).toBe('urn:tubesum:problem:transcription-too-large');
    expect(answer.body.detail).toMatch(/26\.0 MB: the transcription service takes at most 25 MB/);
    expect(env.youtube.media).toHaveLength(1);
    expect(env.youtube.media[0]?.range?.[1]).toBeLessThan(2_000);
    expect(stt.requests).toHaveLength(0);
  });

  it('stops downloading audio larger than the player said at TRANSCRIPTION_MAX_MB, after one range: 422', async () => {
    env.youtube.reset();
    stt.reset();

    const answer = await summarize(env, FAKE_VIDEO_IDS['no-captions-understated']);

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.type).toBe('urn:tubesum:problem:transcription-too-large');
    expect(answer.body.detail).toMatch(/28\.0 MB: this service downloads at most 27 MB/);
    expect(env.youtube.media.map((request) => request.status)).toEqual([206]);
    expect(stt.requests).toHaveLength(0);
  });
});

describe('the daily budget of transcribed minutes', () => {
  let env: SummarizeEnv;
  beforeAll(async () => {
    // The recorded caption-less video lasts 4:48, five minutes: one fits, two do not.
    env = await startSummarizeEnv({
      TRANSCRIPTION_BASE_URL: stt.baseUrl,
      // A transcription adds a download and an upload: answers wait for it (no wall-clock bound).
      SUMMARIZE_WAIT_MS: '25000',
      TRANSCRIPTION_DAILY_MINUTES: '8',
    });
  });
  afterAll(() => env?.close());

  it('stops a user at the budget with a 429 until midnight UTC; transcriptions made before stay free', async () => {
    stt.reset();
    const first = await summarize(env, FAKE_VIDEO_IDS.disabled);
    const untilMidnight = () => Math.ceil((Date.UTC(...todayUtc(), 24) - Date.now()) / 1000);
    const before = untilMidnight();
    const second = await summarize(env, FAKE_VIDEO_IDS['audio-refused-first']);
    const after = untilMidnight();
    const reused = await env.host.request('POST', '/summarize', {
      json: { video_url: FAKE_VIDEO_IDS.disabled, summary_length: 90 },
      token: env.token,
    });

    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(429);
    expect(second.body).toMatchObject({
      type: 'urn:tubesum:problem:transcription-budget-exceeded',
      detail: expect.stringMatching(/5 minutes would pass your daily budget of 8 .*3 left today/),
    });
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(after);
    expect(retryAfter).toBeLessThanOrEqual(before);
    expect(reused.status, reused.text).toBe(200);
    expect(stt.requests).toHaveLength(1);
  });

  it('gives the minutes back of a transcription that failed on the backend’s side, or before any audio reached it', async () => {
    stt.reset();
    const { token } = await env.host.registerAndLogin();
    stt.script(['server-error', 'server-error', 'server-error', 'success']);

    const failed = await summarize(env, FAKE_VIDEO_IDS['audio-foreign-first'], token);
    // Without the refunds, 5 + 5 minutes would pass the budget of 8.
    const next = await summarize(env, FAKE_VIDEO_IDS['audio-redirect-foreign'], token);
    const third = await summarize(env, FAKE_VIDEO_IDS['audio-refused-first'], token);
    const fourth = await summarize(env, FAKE_VIDEO_IDS['audio-foreign-first'], token);

    expect(failed.status, failed.text).toBe(502);
    // The redirect is refused: a YouTube failure, but no audio reached the backend, so its
    // minutes come back too.
    expect(next.status, next.text).toBe(502);
    expect(third.status, third.text).toBe(200);
    // The minutes of a transcription made stay spent: 5 + 5 would pass the budget of 8.
    expect(fourth.status, fourth.text).toBe(429);
  });
});

function todayUtc(): [number, number, number] {
  const now = new Date();
  return [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
}
