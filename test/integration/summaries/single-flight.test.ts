// Identical requests sent at once make their summary once: one YouTube fetch, one model call,
// one quota unit, and the same answer for all (OWASP API4:2023, unrestricted resource use).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { type SummarizeEnv, startSummarizeEnv, TINY_MODEL } from '../../support/summarize-env';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({ SUMMARY_DAILY_QUOTA: '1' });
});
afterAll(() => env?.close());
beforeEach(() => {
  env.youtube.reset();
  env.bedrock.reset();
});

const summarize = (body: Record<string, unknown>, token: string) =>
  env.host.request('POST', '/summarize', { json: body, token });
const playerCalls = () =>
  env.youtube.log.filter((request) => request.url.startsWith('/youtubei/v1/player')).length;

describe('identical requests at once', () => {
  it('share one YouTube fetch, one model call and one quota unit, with one answer', async () => {
    const { token } = await env.host.registerAndLogin();
    // The model answers slowly, so that every request arrives while the first is at work.
    env.bedrock.script('*', [{ delayMs: 800 }]);
    const body = {
      video_url: FAKE_VIDEO_IDS.normal,
      used_model: TINY_MODEL.name,
      summary_length: 77,
    };

    const responses = await Promise.all(Array.from({ length: 10 }, () => summarize(body, token)));
    const another = await summarize({ ...body, summary_length: 78 }, token);

    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((response) => response.body.summary)).size).toBe(1);
    expect(responses.filter((response) => !response.body.metadata.cached)).toHaveLength(1);
    expect(playerCalls()).toBe(1);
    expect(env.bedrock.requests).toHaveLength(1);
    // The quota is 1 a day: the ten took one unit, so another summary is refused.
    expect(another.status).toBe(429);
  });

  it('give every request the same verdict on the video, after one lookup', async () => {
    const { token } = await env.host.registerAndLogin();

    const responses = await Promise.all(
      Array.from({ length: 6 }, () => summarize({ video_url: FAKE_VIDEO_IDS.unavailable }, token)),
    );

    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(404));
    // One search: the two clients whose agreement makes the verdict.
    expect(playerCalls()).toBe(2);
  });
});
