// Fetched videos are cached: another length or model for the same video needs no YouTube call.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({ TRANSCRIPT_CACHE_TTL_SECONDS: '3600' });
});
afterAll(() => env?.close());

const summarize = (body: Record<string, unknown>) =>
  env.host.request('POST', '/summarize', { json: body, token: env.token });

it('makes a new summary of a known video from the cached transcript, without YouTube', async () => {
  const first = await summarize({ video_url: FAKE_VIDEO_IDS.normal, summary_length: 30 });
  const youtubeCalls = env.youtube.requests;

  const otherLength = await summarize({ video_url: FAKE_VIDEO_IDS.normal, summary_length: 31 });
  const otherModel = await summarize({
    video_url: FAKE_VIDEO_IDS.normal,
    summary_length: 31,
    used_model: 'nova-micro',
  });

  expect(youtubeCalls).toBeGreaterThan(0);
  expect([first.status, otherLength.status, otherModel.status]).toEqual([200, 200, 200]);
  expect(otherLength.body.metadata.cached).toBe(false);
  expect(otherLength.body.metadata).toMatchObject({
    title: first.body.metadata.title,
    transcript_word_count: first.body.metadata.transcript_word_count,
  });
  expect(env.bedrock.requests).toHaveLength(1);
  expect(env.youtube.requests).toBe(youtubeCalls);
});

it('fetches again for another requested language', async () => {
  await summarize({ video_url: FAKE_VIDEO_IDS.normal, summary_length: 32 });
  const before = env.youtube.requests;

  const german = await summarize({
    video_url: FAKE_VIDEO_IDS.normal,
    summary_length: 32,
    language: 'de',
  });

  expect(german.status).toBe(200);
  expect(german.body.metadata.transcript_language).toBe('de');
  expect(env.youtube.requests).toBeGreaterThan(before);
});
