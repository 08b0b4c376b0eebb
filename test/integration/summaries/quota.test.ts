// SUMMARY_DAILY_QUOTA: counted atomically per user and UTC day. Every request that makes the
// service call YouTube or a model takes a unit, whatever YouTube answers (404, 422, and its own
// failures: 502, 503, 504); a cached answer is free; a failure of ours or of the model (5xx)
// gives the unit back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({ SUMMARY_DAILY_QUOTA: '2' });
});
afterAll(() => env?.close());

const summarize = (body: Record<string, unknown>, token = env.token) =>
  env.host.request('POST', '/summarize', { json: body, token });
const video = FAKE_VIDEO_IDS.normal;

it('counts lookups the video answers (422, 404) and refuses the next with 429 until UTC midnight', async () => {
  const withoutCaptions = await summarize({ video_url: FAKE_VIDEO_IDS.disabled });
  const first = await summarize({ video_url: video, summary_length: 30 });

  const third = await summarize({ video_url: video, summary_length: 32 });
  const missing = await summarize({ video_url: FAKE_VIDEO_IDS.unavailable });
  const cachedRepeat = await summarize({ video_url: video, summary_length: 30 });

  expect(withoutCaptions.status).toBe(422); // YouTube was asked: it costs a unit
  expect(first.status).toBe(200);
  expect(third.status).toBe(429);
  expect(missing.status).toBe(429); // no more lookups today, not even of missing videos
  expect(third.body.type).toBe('urn:tubesum:problem:quota-exceeded');
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const retryAfter = Number(third.headers.get('retry-after'));
  expect(Math.abs(retryAfter - (midnight - now.getTime()) / 1000)).toBeLessThan(60);
  expect(cachedRepeat.status).toBe(200);
  expect(cachedRepeat.body.metadata.cached).toBe(true);
});

it('counts a lookup YouTube fails (502, 503 blocked) like any other: failing lookups are not free', async () => {
  const { token } = await env.host.registerAndLogin();

  const statuses = [];
  for (const id of [FAKE_VIDEO_IDS['server-error'], FAKE_VIDEO_IDS.blocked, FAKE_VIDEO_IDS.hang]) {
    statuses.push((await summarize({ video_url: id }, token)).status);
  }

  // The third is refused before YouTube is asked: the two failures spent the day's units.
  expect(statuses).toEqual([502, 503, 429]);
});

it('gives the unit back when the model fails (5xx): that failure is ours, not the request’s', async () => {
  const { token } = await env.host.registerAndLogin();
  env.bedrock.script('us.amazon.nova-micro-v1:0', ['throttle']);

  const failures = [];
  for (let i = 0; i < 3; i++) {
    const body = { video_url: video, summary_length: 50 + i, used_model: 'nova-micro' };
    failures.push((await summarize(body, token)).status);
  }
  env.bedrock.reset();
  const afterwards = [
    await summarize({ video_url: video, summary_length: 60 }, token),
    await summarize({ video_url: video, summary_length: 61 }, token),
  ];

  expect(failures).toEqual([503, 503, 503]);
  expect(afterwards.map((response) => response.status)).toEqual([200, 200]);
});

it('counts each user separately', async () => {
  const { token } = await env.host.registerAndLogin();

  const response = await summarize({ video_url: video, summary_length: 33 }, token);

  expect(response.status).toBe(200);
});

it('lets exactly the quota through when one user sends many requests at once', async () => {
  const { token } = await env.host.registerAndLogin();

  const responses = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      summarize({ video_url: video, summary_length: 100 + i }, token),
    ),
  );
  const statuses = responses.map((response) => response.status).sort();

  expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
});
