// Collections over HTTP: the local host's real handler stack against DynamoDB Local, the fake
// YouTube replaying recorded browse answers (test/fixtures/youtube/browse: a 150-video playlist
// over two pages, a course playlist, a channel's videos tab, a channel whose browse is refused
// and whose RSS feed is read instead), every video of them answered as the recorded normal video.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_CHANNELS, FAKE_PLAYLISTS } from '../../support/fake-browse-scenarios';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';
import { loadSharedTranscript, toCaptionXml } from '../../support/transcripts';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({ SUMMARY_DAILY_QUOTA: '130', COLLECTION_CONCURRENCY: '3' });
  env.youtube.useScenario('normal');
  // Computerphile's CNN talk for every video: questions about kernels are answered from it.
  env.youtube.setEnglishTrack(toCaptionXml(loadSharedTranscript().segments));
});
afterAll(() => env?.close());

const playlist = (id: string) => `https://www.youtube.com/playlist?list=${id}`;
const create = (body: Record<string, unknown>, token = env.token) =>
  env.host.request('POST', '/collections', { json: { used_model: 'extractive', ...body }, token });
const read = (id: string, token = env.token) =>
  env.host.request('GET', `/collections/${id}`, { token });

/** Polls a collection until it has ended. */
// biome-ignore lint/suspicious/noExplicitAny: a collection as the test reads it
async function settled(id: string, token = env.token, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await read(id, token);
    if (['done', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`collection ${id}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('reading playlists and channels', () => {
  it('reads a playlist across its continuation page, in its order, up to limit', async () => {
    const { token } = await env.host.registerAndLogin();

    const answer = await create({ url: playlist(FAKE_PLAYLISTS.top150), limit: 120 }, token);
    await env.host.request('DELETE', `/collections/${answer.body.id}`, { token });

    expect(answer.status).toBe(202);
    expect(answer.headers.get('location')).toBe(`/collections/${answer.body.id}`);
    expect(answer.body.kind).toBe('playlist');
    expect(answer.body.videos).toHaveLength(120);
    expect(answer.body.more).toBe(true);
    // The recorded pages' order: the 101st entry comes from the continuation page.
    const ids = answer.body.videos.map((video: { video_id: string }) => video.video_id);
    expect(new Set(ids).size).toBe(120);
    const again = await create({ url: playlist(FAKE_PLAYLISTS.top150), limit: 3 }, token);
    await env.host.request('DELETE', `/collections/${again.body.id}`, { token });
    expect(again.body.videos.map((video: { video_id: string }) => video.video_id)).toEqual(
      ids.slice(0, 3),
    );
  });

  it("reads a channel's videos tab, newest first, by handle and by id alike", async () => {
    const { token } = await env.host.registerAndLogin();

    const byHandle = await create(
      { url: 'https://www.youtube.com/@creativecommons', limit: 2 },
      token,
    );
    const byId = await create(
      { url: `https://www.youtube.com/channel/${FAKE_CHANNELS.creativeCommons}`, limit: 2 },
      token,
    );
    for (const made of [byHandle, byId]) {
      await env.host.request('DELETE', `/collections/${made.body.id}`, { token });
    }

    expect(byHandle.status).toBe(202);
    expect(byHandle.body.kind).toBe('channel');
    expect(byHandle.body.url).toBe(
      `https://www.youtube.com/channel/${FAKE_CHANNELS.creativeCommons}`,
    );
    expect(byHandle.body.videos).toHaveLength(2);
    expect(byId.body.videos).toEqual(byHandle.body.videos);
  });

  it("falls back to the channel's RSS feed when browse is refused", async () => {
    const { token } = await env.host.registerAndLogin();

    const answer = await create(
      { url: `https://www.youtube.com/channel/${FAKE_CHANNELS.kurzgesagt}`, limit: 20 },
      token,
    );
    await env.host.request('DELETE', `/collections/${answer.body.id}`, { token });

    expect(answer.status).toBe(202);
    expect(answer.body.videos).toHaveLength(15);
    expect(answer.body.more).toBe(true);
  });

  it('refuses a mix (422) and a playlist that does not exist (404) before any work', async () => {
    const mix = await create({
      url: 'https://www.youtube.com/watch?v=py5byOOHZM8&list=RDpy5byOOHZM8',
    });
    const missing = await create({ url: playlist(FAKE_PLAYLISTS.missing) });
    const privateOne = await create({ url: playlist(FAKE_PLAYLISTS.private) });

    expect(mix.status).toBe(422);
    expect(mix.body.type).toBe('urn:tubesum:problem:collection-mix-unsupported');
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe('urn:tubesum:problem:playlist-unavailable');
    expect(privateOne.status).toBe(404);
    expect(privateOne.body.detail).toMatch(/private/i);
    const list = await env.host.request('GET', '/collections', { token: env.token });
    expect(list.body.items.map((item: { url: string }) => item.url)).not.toContain(
      playlist(FAKE_PLAYLISTS.missing),
    );
  });

  it('lists private, deleted and members-only entries as skipped, with their reason', async () => {
    const { token } = await env.host.registerAndLogin();

    const answer = await create({ url: playlist(FAKE_PLAYLISTS.skipped) }, token);
    await env.host.request('DELETE', `/collections/${answer.body.id}`, { token });

    const reasons = answer.body.videos
      .filter((video: { status: string }) => video.status === 'skipped')
      .map((video: { reason: string }) => video.reason);
    expect(reasons).toEqual(expect.arrayContaining(['private', 'deleted', 'members-only']));
  });
});

describe('summarizing a collection', () => {
  it('summarizes every video of a course, then makes an overview whose citations link to moments', async () => {
    const { token } = await env.host.registerAndLogin();

    const made = await create({ url: playlist(FAKE_PLAYLISTS.course), summary_length: 80 }, token);
    const done = await settled(made.body.id, token);

    expect(made.status).toBe(202);
    expect(done.status).toBe('done');
    expect(done.progress).toEqual({ done: done.videos.length, total: done.videos.length });
    for (const video of done.videos) {
      expect(video.status).toBe('done');
      const summary = await env.host.request('GET', `/summaries/${video.summary_id}`, { token });
      expect(summary.body.status).toBe('done');
      expect(summary.body.video.video_id).toBe(video.video_id);
    }
    expect(done.overview.word_count).toBeGreaterThan(0);
    expect(done.overview.themes.length).toBeGreaterThanOrEqual(3);
    expect(done.overview.themes.length).toBeLessThanOrEqual(8);
    const ids = new Set(done.videos.map((video: { video_id: string }) => video.video_id));
    for (const theme of done.overview.themes) {
      expect(theme.citations.length).toBeGreaterThan(0);
      for (const citation of theme.citations) {
        expect(ids.has(citation.video_id)).toBe(true);
        expect(citation.url).toBe(
          `https://www.youtube.com/watch?v=${citation.video_id}&t=${Math.floor(citation.start_seconds)}s`,
        );
      }
    }

    const asked = await env.host.request('POST', `/collections/${made.body.id}/ask`, {
      json: { question: 'How do kernel convolutions find edges, like the Sobel operator?' },
      token,
    });
    expect(asked.status).toBe(200);
    expect(asked.body.metadata.answered).toBe(true);
    expect(asked.body.citations.length).toBeGreaterThan(0);
    for (const citation of asked.body.citations) expect(ids.has(citation.video_id)).toBe(true);
  }, 150_000);

  it('costs nothing for videos summarized before: a second collection of the same course is free', async () => {
    const { token } = await env.host.registerAndLogin();
    const first = await settled(
      (await create({ url: playlist(FAKE_PLAYLISTS.course), summary_length: 81 }, token)).body.id,
      token,
    );

    const second = await create(
      { url: playlist(FAKE_PLAYLISTS.course), summary_length: 81 },
      token,
    );
    const done = await settled(second.body.id, token);

    // Exactly what the first left of the day's 130: refused had the second been charged too.
    const rest = 130 - first.videos.length;
    const third = await create(
      { url: playlist(FAKE_PLAYLISTS.top150), limit: rest, summary_length: 81 },
      token,
    );
    await env.host.request('DELETE', `/collections/${third.body.id}`, { token });

    expect(first.status).toBe('done');
    expect(second.status).toBe(202);
    expect(done.status).toBe('done');
    expect(third.status).toBe(202);
  }, 150_000);

  it('gives back the unit taken for a video another collection was already making', async () => {
    const { token } = await env.host.registerAndLogin();
    const course = { url: playlist(FAKE_PLAYLISTS.course), summary_length: 83 };

    // Both count every video as new (nothing is made yet) and take 14 units each...
    const [one, two] = await Promise.all([create(course, token), create(course, token)]);
    await settled(one.body.id, token);
    await settled(two.body.id, token);
    // ...but each video was made once: the second's units came back, 116 of 130 are left.
    const rest = 130 - one.body.videos.length;
    const fits = await create(
      { url: playlist(FAKE_PLAYLISTS.top150), limit: rest, summary_length: 84 },
      token,
    );
    await env.host.request('DELETE', `/collections/${fits.body.id}`, { token });

    expect([one.status, two.status]).toEqual([202, 202]);
    expect(fits.status).toBe(202);
  }, 150_000);

  it('refuses with 429 before any work a collection that needs more units than are left', async () => {
    const { token } = await env.host.registerAndLogin();

    const answer = await create(
      { url: playlist(FAKE_PLAYLISTS.top150), limit: 140, summary_length: 77 },
      token,
    );
    const jobs = await env.host.request('GET', '/summaries', { token });
    const collections = await env.host.request('GET', '/collections', { token });

    expect(answer.status).toBe(429);
    expect(answer.body.type).toBe('urn:tubesum:problem:quota-exceeded');
    expect(answer.body.detail).toMatch(/needs 140 new summaries and you have 130 of 130 left/);
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(jobs.body.items).toEqual([]);
    expect(collections.body.items).toEqual([]);
  });

  it("answers 404 for another account's collection, on every route", async () => {
    const owner = await env.host.registerAndLogin();
    const other = await env.host.registerAndLogin();
    const made = await create({ url: playlist(FAKE_PLAYLISTS.course), limit: 2 }, owner.token);

    const get = await read(made.body.id, other.token);
    const cancel = await env.host.request('DELETE', `/collections/${made.body.id}`, {
      token: other.token,
    });
    const ask = await env.host.request('POST', `/collections/${made.body.id}/ask`, {
      json: { question: 'What is a kernel?' },
      token: other.token,
    });
    const list = await env.host.request('GET', '/collections', { token: other.token });
    const mine = await read(made.body.id, owner.token);

    expect([get.status, cancel.status, ask.status]).toEqual([404, 404, 404]);
    expect(cancel.body.type).toBe(get.body.type);
    expect(list.body.items).toEqual([]);
    expect(mine.status).toBe(200);
    expect(mine.body.status).not.toBe('cancelled');
  });

  it('cancels what has not started, and removes a collection once it ended', async () => {
    const { token } = await env.host.registerAndLogin();
    const made = await create({ url: playlist(FAKE_PLAYLISTS.top150), limit: 12 }, token);

    const cancelled = await env.host.request('DELETE', `/collections/${made.body.id}`, { token });
    const removed = await env.host.request('DELETE', `/collections/${made.body.id}`, { token });
    const gone = await read(made.body.id);

    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const statuses = cancelled.body.videos.map((video: { status: string }) => video.status);
    expect(statuses.filter((status: string) => status === 'cancelled').length).toBeGreaterThan(6);
    expect(removed.status).toBe(204);
    expect(gone.status).toBe(404);
  });
});
