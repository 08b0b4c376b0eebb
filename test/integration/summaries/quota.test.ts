// SUMMARY_DAILY_QUOTA: counted atomically per user and UTC day; cache hits and failures are free.
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

it('refuses the third new summary of the day with 429 and Retry-After until UTC midnight', async () => {
  const failed = await summarize({ video_url: FAKE_VIDEO_IDS.disabled });
  const first = await summarize({ video_url: video, summary_length: 30 });
  const second = await summarize({ video_url: video, summary_length: 31 });

  const third = await summarize({ video_url: video, summary_length: 32 });
  const cachedRepeat = await summarize({ video_url: video, summary_length: 30 });

  expect(failed.status).toBe(422); // a failed summary does not use up the quota
  expect([first.status, second.status]).toEqual([200, 200]);
  expect(third.status).toBe(429);
  expect(third.body.type).toBe('urn:tubesum:problem:quota-exceeded');
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const retryAfter = Number(third.headers.get('retry-after'));
  expect(Math.abs(retryAfter - (midnight - now.getTime()) / 1000)).toBeLessThan(60);
  expect(cachedRepeat.status).toBe(200);
  expect(cachedRepeat.body.metadata.cached).toBe(true);
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
