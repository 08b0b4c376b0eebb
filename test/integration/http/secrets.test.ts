// Secrets read from Secrets Manager, as deployed: the JWT key (JWT_SECRET_ARN) and the YouTube
// proxy URL and Data API key (YOUTUBE_SECRET_ARN), through the real SDK client against a stub
// that speaks GetSecretValue's wire protocol. Each is read once per function instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_API_KEY,
  FAKE_VIDEO_IDS,
  type FakeProxy,
  startConnectProxy,
} from '../../support/fake-youtube';
import { TEST_SECRET } from '../../support/host';
import { type SecretsStub, secretArn, startSecretsStub } from '../../support/secrets-stub';
import { startSummarizeEnv } from '../../support/summarize-env';

const JWT_ARN = secretArn('tubesum-jwt');
const YOUTUBE_ARN = secretArn('tubesum-youtube');
const BROKEN_ARN = secretArn('tubesum-youtube-broken');

let stub: SecretsStub;
let proxy: FakeProxy;

beforeAll(async () => {
  stub = await startSecretsStub({ [JWT_ARN]: TEST_SECRET });
  proxy = await startConnectProxy({ credentials: { username: 'tube', password: 'pr0xy' } });
});
afterAll(async () => {
  await proxy?.close();
  await stub?.close();
});

/** The settings of a deployed function: ARNs only, no secret in the environment. */
const deployed = (youtubeArn: string) => ({
  AWS_ENDPOINT_URL_SECRETS_MANAGER: stub.endpoint,
  JWT_SECRET: '',
  JWT_SECRET_ARN: JWT_ARN,
  YOUTUBE_SECRET_ARN: youtubeArn,
});

const request = (video: string, length: number) => ({
  video_url: `https://www.youtube.com/watch?v=${video}`,
  summary_length: length,
  used_model: 'extractive',
});

describe('secrets from Secrets Manager', () => {
  it('signs with the key at JWT_SECRET_ARN and uses the proxy and API key at YOUTUBE_SECRET_ARN, reading each once', async () => {
    const proxyUrl = proxy.url.replace('http://', 'http://tube:pr0xy@');
    stub.put(YOUTUBE_ARN, JSON.stringify({ proxyUrl, apiKey: FAKE_API_KEY }));
    const env = await startSummarizeEnv(deployed(YOUTUBE_ARN));
    try {
      const first = await env.host.request('POST', '/summarize', {
        token: env.token,
        json: request(FAKE_VIDEO_IDS.normal, 61),
      });
      // Another cache miss in the same instance: the client built from the secret is kept.
      const second = await env.host.request('POST', '/summarize', {
        token: env.token,
        json: request(FAKE_VIDEO_IDS.normal, 62),
      });

      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      // Only the Data API, called with the key from the secret, knows the like count.
      expect(first.body.metadata.like_count).toBe(41_000);
      expect(proxy.tunnels).toContain(new URL(env.youtube.baseUrl).host);
      expect(stub.reads.filter((id) => id === YOUTUBE_ARN)).toHaveLength(1);
      // /token signed with the key from the secret and /summarize verified with it: one read
      // by each of the two functions, however many requests they serve.
      expect(stub.reads.filter((id) => id === JWT_ARN)).toHaveLength(2);
    } finally {
      await env.close();
    }
  });

  it.each([
    ['not JSON', 'http://proxy:8080'],
    ['a proxy URL that is not http(s)', JSON.stringify({ proxyUrl: 'ftp://x', apiKey: '' })],
    ['missing', undefined],
  ])(
    'answers 503 server-misconfigured, never a 500, when the YouTube secret is %s',
    async (_case, value) => {
      if (value !== undefined) stub.put(BROKEN_ARN, value);
      const arn = value === undefined ? secretArn('no-such-secret') : BROKEN_ARN;
      const env = await startSummarizeEnv(deployed(arn));
      try {
        const response = await env.host.request('POST', '/summarize', {
          token: env.token,
          json: request(FAKE_VIDEO_IDS.normal, 63),
        });

        expect(response.status).toBe(503);
        expect(response.body.type).toBe('urn:tubesum:problem:server-misconfigured');
        expect(response.headers.get('retry-after')).toBe('30');
        expect(response.text).not.toMatch(/proxy:8080|ftp:|secret:/);
        expect(env.youtube.requests).toBe(0);
      } finally {
        await env.close();
      }
    },
  );
});
