// The limits of collections over HTTP (docs/SECURITY.md, "Collections"): what is refused before
// any request to YouTube or any quota unit, a playlist with nothing to summarize, and the units
// a cancellation gives back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAKE_PLAYLISTS } from '../../support/fake-browse-scenarios';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({ SUMMARY_DAILY_QUOTA: '130' });
  env.youtube.useScenario('normal');
});
afterAll(() => env?.close());

const playlist = (id: string) => `https://www.youtube.com/playlist?list=${id}`;
const create = (body: Record<string, unknown>, token = env.token) =>
  env.host.request('POST', '/collections', { json: { used_model: 'extractive', ...body }, token });
/** Every request the fake YouTube received so far. */
const youtubeRequests = () => env.youtube.requests;

it('refuses a limit outside 1-200 and a URL that is no playlist or channel before asking YouTube', async () => {
  const before = youtubeRequests();

  const answers = await Promise.all([
    create({ url: playlist(FAKE_PLAYLISTS.course), limit: 0 }),
    create({ url: playlist(FAKE_PLAYLISTS.course), limit: 201 }),
    create({ url: playlist(FAKE_PLAYLISTS.course), limit: 2.5 }),
    create({ url: `https://www.youtube.com/playlist?list=${'P'.repeat(2_100)}` }),
    create({ url: 'https://www.youtube.com.evil.example/playlist?list=PL0123456789' }),
    create({ url: 'http://localhost:8080/@handle' }),
    create({ url: 'https://www.youtube.com/watch?v=py5byOOHZM8' }),
  ]);

  expect(answers.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 422, 422, 422]);
  expect(answers.slice(0, 3).map((answer) => answer.body.errors[0].field)).toEqual([
    'limit',
    'limit',
    'limit',
  ]);
  expect(youtubeRequests()).toBe(before);
});

it('refuses a playlist with nothing to summarize (422 collection-empty), taking no unit', async () => {
  const { token } = await env.host.registerAndLogin();

  const empty = await create({ url: playlist(FAKE_PLAYLISTS.membersOnly) }, token);
  const list = await env.host.request('GET', '/collections', { token });

  expect(empty.status).toBe(422);
  expect(empty.body.type).toBe('urn:tubesum:problem:collection-empty');
  expect(empty.body.detail).toMatch(/members-only/);
  expect(list.body.items).toEqual([]);
});

it('answers 404 for an id of the wrong form, and 422 for a question over 500 characters', async () => {
  const made = await create({ url: playlist(FAKE_PLAYLISTS.course), limit: 1 });

  const wrongForm = await env.host.request('GET', '/collections/not-an-id', { token: env.token });
  const longQuestion = await env.host.request('POST', `/collections/${made.body.id}/ask`, {
    json: { question: 'why '.repeat(130) },
    token: env.token,
  });
  const blank = await env.host.request('POST', `/collections/${made.body.id}/ask`, {
    json: { question: '\u200b \u200b' },
    token: env.token,
  });

  expect(wrongForm.status).toBe(404);
  expect(longQuestion.status).toBe(422);
  expect(longQuestion.body.errors[0].field).toBe('question');
  expect(blank.status).toBe(422);
});

it('gives back the units of the videos a cancellation stops before they start', async () => {
  const { token } = await env.host.registerAndLogin();
  const made = await create(
    { url: playlist(FAKE_PLAYLISTS.top150), limit: 100, summary_length: 85 },
    token,
  );

  const cancelled = await env.host.request('DELETE', `/collections/${made.body.id}`, { token });
  const started = cancelled.body.videos.filter(
    (video: { status: string }) => video.status !== 'cancelled',
  ).length;
  // All but the ones started are back: a collection needing the rest of the day's units fits.
  const fits = await create(
    { url: playlist(FAKE_PLAYLISTS.top150), limit: 130 - started, summary_length: 86 },
    token,
  );
  await env.host.request('DELETE', `/collections/${fits.body.id}`, { token });

  expect(made.status).toBe(202);
  expect(cancelled.body.status).toBe('cancelled');
  expect(started).toBeLessThan(10);
  expect(fits.status).toBe(202);
});

it('lists the caller’s collections newest first, a page at a time, and refuses a made-up cursor', async () => {
  const { token } = await env.host.registerAndLogin();
  const ids: string[] = [];
  for (const limit of [1, 2, 3]) {
    const made = await create(
      { url: playlist(FAKE_PLAYLISTS.course), limit, summary_length: 90 },
      token,
    );
    ids.push(made.body.id);
  }

  const first = await env.host.request('GET', '/collections?limit=2', { token });
  const second = await env.host.request(
    'GET',
    `/collections?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    { token },
  );
  const forged = await env.host.request('GET', '/collections?cursor=bm90LWEtY3Vyc29y', { token });

  const listed = [...first.body.items, ...second.body.items].map((item) => item.id);
  expect(listed).toEqual([...ids].reverse());
  expect(second.body.next_cursor).toBeNull();
  expect(forged.status).toBe(422);
  expect(forged.body.errors[0].field).toBe('cursor');
});
