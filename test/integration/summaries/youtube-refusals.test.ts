// Issue 18 over HTTP, through POST /summarize: one InnerTube client's refusal is not the video's
// verdict. The fake YouTube answers in the recorded shapes of each case (test/support/
// fake-youtube.ts says where each comes from); the service must serve the transcript from
// another client, give a verdict only when two clients agree, retry the bot check with fresh
// visitor data, and not wait for a caption track that never comes.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS, type FakeRequest } from '../../support/fake-youtube';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({
    SUMMARY_CACHE_TTL_SECONDS: '0',
    // A caption track that never comes is given up after this (any bound meets a hang); the
    // tracks that do come take milliseconds, seconds on a loaded machine.
    YOUTUBE_CAPTION_TIMEOUT_MS: '3000',
  });
});
afterAll(() => env?.close());
/** Visitor data the fake handed out at visitor_id, across the tests (the service keeps it). */
const handedOutEver: string[] = [];
beforeEach(() => {
  handedOutEver.push(...env.youtube.log.flatMap((request) => request.handedOut ?? []));
  env.youtube.reset();
});

let length = 500;
const summarize = (video: string) =>
  env.host.request('POST', '/summarize', {
    json: { video_url: video, summary_length: length++ },
    token: env.token,
  });
const players = (): FakeRequest[] => env.youtube.log.filter((request) => request.client);

it.each([
  ['"The page needs to be reloaded."', 'reload-first'],
  ['a made-for-kids refusal ("not available on this app")', 'kids-first'],
  ['"Video unavailable" from one client only', 'unavailable-one-client'],
] as const)(
  'serves the transcript from the next client when the first answers %s',
  async (_case, scenario) => {
    const response = await summarize(FAKE_VIDEO_IDS[scenario]);

    expect(response.status).toBe(200);
    expect(response.body.metadata.transcript_client).toBe('IOS');
    expect(players().map((request) => request.client?.name)).toEqual(['ANDROID', 'IOS']);
  },
);

it('answers 404 for a video every client calls unavailable, only after two clients agreed', async () => {
  const response = await summarize(FAKE_VIDEO_IDS.unavailable);

  expect(response.status).toBe(404);
  expect(response.body.type).toBe('urn:tubesum:problem:video-unavailable');
  expect(players().map((request) => request.client?.name)).toEqual(['ANDROID', 'IOS']);
  // Two agreeing clients are enough: no third request, no watch page.
  expect(env.youtube.log.some((request) => request.url.startsWith('/watch'))).toBe(false);
});

it('passes the bot check on a second try with fresh visitor data, with no proxy set', async () => {
  const response = await summarize(FAKE_VIDEO_IDS['bot-check-once']);

  expect(response.status).toBe(200);
  expect(response.body.metadata.transcript_client).toBe('ANDROID');
  const [first, retry] = players();
  expect(players()).toHaveLength(2);
  expect(retry?.client?.name).toBe('ANDROID');
  expect(retry?.client?.visitorData).toMatch(/^CgtWaXNpdG9y/);
  expect(retry?.client?.visitorData).not.toBe(first?.client?.visitorData);
  // The fresh visitor data came from visitor_id, asked after the bot check.
  const handedOut = env.youtube.log.flatMap((request) => request.handedOut ?? []);
  expect(handedOut).toContain(retry?.client?.visitorData);
});

it('says a proxy may help only after the bot check came back on the retry', async () => {
  const response = await summarize(FAKE_VIDEO_IDS.blocked);

  expect(response.status).toBe(503);
  expect(response.body.block_reason).toBe('bot-check');
  expect(response.body.detail).toMatch(
    /Retrying from this address with fresh visitor data did not help/,
  );
  expect(response.body.detail).toContain('YOUTUBE_PROXY_URL');
  expect(players()).toHaveLength(6);
});

it('downloads another client’s caption track when the first one never arrives, within the request', async () => {
  const response = await summarize(FAKE_VIDEO_IDS['slow-first-track']);

  // ANDROID's track was given up after YOUTUBE_CAPTION_TIMEOUT_MS, and the summary still came
  // within the request's wait, from IOS's track.
  expect(response.status).toBe(200);
  expect(response.body.metadata.transcript_client).toBe('IOS');
  const tracks = env.youtube.log.filter((request) => request.url.startsWith('/api/timedtext'));
  expect(tracks.map((request) => new URL(request.url, 'http://x').searchParams.get('c'))).toEqual([
    'ANDROID',
    'IOS',
  ]);
});

it('sends the visitor data YouTube gave with the player requests after the first', async () => {
  await summarize(FAKE_VIDEO_IDS['retired-android']);

  const [first, second] = players();
  const handedOut = [
    ...handedOutEver,
    ...env.youtube.log.flatMap((request) => request.handedOut ?? []),
  ];
  expect(second?.client?.visitorData).toBeDefined();
  expect(handedOut).toContain(second?.client?.visitorData);
  expect(second?.client?.visitorHeader).toBe(second?.client?.visitorData);
  expect(first?.client?.visitorData).toBe(second?.client?.visitorData);
});

it('downloads caption tracks with a real user agent and Accept-Language', async () => {
  await summarize(FAKE_VIDEO_IDS.normal);

  const track = env.youtube.log.find((request) => request.url.startsWith('/api/timedtext'));
  expect(track?.userAgent).toMatch(/^Mozilla\/5\.0 \(.+\) .+Chrome\/\d+/);
  expect(track?.userAgent).not.toMatch(/undici|node/i);
  expect(track?.acceptLanguage).toMatch(/^en-US,en;q=0\.\d/);
});
