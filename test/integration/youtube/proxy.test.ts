// YOUTUBE_PROXY_URL: every YouTube request goes through the proxy (an HTTP CONNECT tunnel).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../infra/local/dynamodb';
import { parseClientOrder } from '../../../lib/config/innertube-clients';
import { HttpError } from '../../../lib/errors';
import { createYouTubeClient } from '../../../lib/youtube/client';
import {
  FAKE_VIDEO_IDS,
  type FakeProxy,
  type FakeYouTube,
  startConnectProxy,
  startFakeYouTube,
} from '../../support/fake-youtube';

let fake: FakeYouTube;
let proxy: FakeProxy;

beforeAll(async () => {
  fake = await startFakeYouTube();
  proxy = await startConnectProxy({ credentials: { username: 'tube', password: 's3cret' } });
});

afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const withCredentials = (user: string, password: string) =>
  proxy.url.replace('http://', `http://${user}:${password}@`);

describe('YOUTUBE_PROXY_URL', () => {
  it('sends every YouTube request through the proxy, with its credentials', async () => {
    const client = createYouTubeClient({
      baseUrl: fake.baseUrl,
      proxyUrl: withCredentials('tube', 's3cret'),
    });
    fake.reset();

    const video = await client.fetchVideo(FAKE_VIDEO_IDS.normal);

    await client.close();
    expect(video.metadata.title).toBe('Surface Go Review - It’s Awesome');
    // Visitor data, the player, the caption track.
    expect(fake.requests).toBe(3);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(fake.baseUrl).host]));
  });

  it('answers 503 youtube-unreachable when the proxy refuses the credentials', async () => {
    const client = createYouTubeClient({
      baseUrl: fake.baseUrl,
      proxyUrl: withCredentials('tube', 'wrong'),
    });
    fake.reset();

    const error = await client.fetchVideo(FAKE_VIDEO_IDS.normal).catch((caught: unknown) => caught);

    await client.close();
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).type).toBe('youtube-unreachable');
    expect((error as HttpError).message).toContain('YOUTUBE_PROXY_URL');
    expect(fake.requests).toBe(0);
  });

  it('downloads the audio of a video without captions through the proxy as well', async () => {
    // Nothing listens at the origin the client is given: only the proxy, whose exit is the
    // fake, gets a request there, and the fake's audio URLs name that origin (its Host).
    const exit = await startConnectProxy({ exits: [new URL(fake.baseUrl).host] });
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const client = createYouTubeClient({ baseUrl: unreachable, proxyUrl: exit.url });
    fake.reset();
    try {
      const found = await client.lookUpVideo(FAKE_VIDEO_IDS.disabled);
      if (found.kind !== 'captionless') throw new Error('expected a video without captions');
      const offer = found.offers[0];
      if (!offer) throw new Error('expected an audio offer');
      const audio = await client.downloadAudio(offer, {
        userAgent: offer.userAgent,
        maxBytes: 10_000_000,
      });

      expect(new URL(offer.url).origin).toBe(unreachable);
      expect(audio.byteLength).toBe(offer.bytes);
      expect(fake.media.map((request) => request.status)).toEqual([206]);
      expect(new Set(exit.tunnels)).toEqual(new Set([new URL(unreachable).host]));
    } finally {
      await client.close();
      await exit.close();
    }
  });

  it('answers 503 youtube-unreachable when the proxy is down', async () => {
    const down = await startConnectProxy();
    const url = down.url;
    await down.close();
    const client = createYouTubeClient({ baseUrl: fake.baseUrl, proxyUrl: url });

    const error = await client.fetchVideo(FAKE_VIDEO_IDS.normal).catch((caught: unknown) => caught);

    await client.close();
    expect((error as HttpError).status).toBe(503);
    expect((error as HttpError).type).toBe('youtube-unreachable');
  });
});

describe('a rotating proxy (YOUTUBE_PROXY_RETRIES)', () => {
  // Two exits: the first connection leaves through an address YouTube blocks, later ones
  // through an address it serves, as with a rotating residential proxy.
  let blockedExit: FakeYouTube;
  let rotating: FakeProxy;

  beforeEach(async () => {
    blockedExit = await startFakeYouTube();
    // A rate limit: no second try of its own, so only YOUTUBE_PROXY_RETRIES moves on.
    blockedExit.useScenario('try-again-later');
    // Connections leave through the blocked exit until it has refused a player request (how
    // many connections come first, for visitor data, is the HTTP pool's business).
    rotating = await startConnectProxy({
      exits: () =>
        new URL(
          blockedExit.log.some((request) => request.client) ? fake.baseUrl : blockedExit.baseUrl,
        ).host,
    });
    fake.reset();
  });

  afterEach(async () => {
    await rotating.close();
    await blockedExit.close();
  });

  // One client, so that only a retry can reach the second exit.
  const fetchThroughRotatingProxy = async (proxyRetries: number) => {
    const client = createYouTubeClient({
      baseUrl: fake.baseUrl,
      proxyUrl: rotating.url,
      proxyRetries,
      clients: parseClientOrder(['ANDROID']),
    });
    try {
      return await client.fetchVideo(FAKE_VIDEO_IDS.normal).catch((caught: unknown) => caught);
    } finally {
      await client.close();
    }
  };

  it('retries on a fresh connection after a block, and gets the transcript from the next exit', async () => {
    const video = await fetchThroughRotatingProxy(2);

    expect(video).toMatchObject({
      client: 'ANDROID',
      metadata: { video_id: FAKE_VIDEO_IDS.normal },
    });
    // ANDROID was asked on the blocked exit first, then again on the next one.
    const asked = (log: typeof fake.log) =>
      log.flatMap((request) => (request.client ? [request.client.name] : []));
    expect(asked(blockedExit.log)).toEqual(['ANDROID']);
    expect(asked(fake.log)).toEqual(['ANDROID']);
    expect(fake.log.some((request) => request.url.startsWith('/api/timedtext'))).toBe(true);
  });

  it('reports the block when no retry is allowed', async () => {
    const error = await fetchThroughRotatingProxy(0);

    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).extensions.block_reason).toBe('rate-limited');
    expect((error as HttpError).message).toContain('through the proxy');
    expect(fake.log.some((request) => request.client)).toBe(false);
  });

  it('retries a bot check on a new proxy session even when YOUTUBE_PROXY_RETRIES is 0', async () => {
    blockedExit.useScenario('blocked');

    const video = await fetchThroughRotatingProxy(0);

    expect(video).toMatchObject({ client: 'ANDROID' });
    expect(blockedExit.log.filter((request) => request.client)).toHaveLength(1);
  });
});
