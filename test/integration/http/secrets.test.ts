// Secrets read from Secrets Manager, as deployed: the JWT key (JWT_SECRET_ARN) and the operator's
// credentials (CREDENTIALS_SECRET_ARN: the YouTube proxy URL and Data API key, the OpenAI key),
// through the real SDK client against a stub that speaks GetSecretValue's wire protocol. Each is
// read once per function instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_API_KEY,
  FAKE_VIDEO_IDS,
  type FakeProxy,
  startConnectProxy,
} from '../../support/fake-youtube';
import { TEST_SECRET } from '../../support/host';
import { type SecretsStub, secretArn, startSecretsStub } from '../../support/secrets-stub';
import { OPENAI_MODEL_NAME, startSummarizeEnv } from '../../support/summarize-env';

const JWT_ARN = secretArn('tubesum-jwt');
const CREDENTIALS_ARN = secretArn('tubesum-credentials');
const BROKEN_ARN = secretArn('tubesum-credentials-broken');

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
const deployed = (credentialsArn: string) => ({
  AWS_ENDPOINT_URL_SECRETS_MANAGER: stub.endpoint,
  JWT_SECRET: '',
  JWT_SECRET_ARN: JWT_ARN,
  CREDENTIALS_SECRET_ARN: credentialsArn,
});

const request = (video: string, length: number, model = 'extractive') => ({
  video_url: `https://www.youtube.com/watch?v=${video}`,
  summary_length: length,
  used_model: model,
});

describe('secrets from Secrets Manager', () => {
  it('signs with the key at JWT_SECRET_ARN and uses the credentials at CREDENTIALS_SECRET_ARN, reading each once', async () => {
    const youtubeProxyUrl = proxy.url.replace('http://', 'http://tube:pr0xy@');
    stub.put(
      CREDENTIALS_ARN,
      JSON.stringify({
        youtubeProxyUrl,
        youtubeApiKey: FAKE_API_KEY,
        openaiApiKey: 'sk-from-secret',
      }),
    );
    const env = await startSummarizeEnv(deployed(CREDENTIALS_ARN));
    env.openai.requireKey('sk-from-secret');
    try {
      const first = await env.host.request('POST', '/summarize', {
        token: env.token,
        json: request(FAKE_VIDEO_IDS.normal, 61),
      });
      // Another cache miss in the same instance: the clients built from the secret are kept.
      const second = await env.host.request('POST', '/summarize', {
        token: env.token,
        json: request(FAKE_VIDEO_IDS.normal, 62, OPENAI_MODEL_NAME),
      });

      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      // Only the Data API, called with the key from the secret, knows the like count.
      expect(first.body.metadata.like_count).toBe(41_000);
      expect(proxy.tunnels).toContain(new URL(env.youtube.baseUrl).host);
      // The model server refuses any key but the one in the secret.
      expect(env.openai.requests[0]?.headers.authorization).toBe('Bearer sk-from-secret');
      expect(stub.reads.filter((id) => id === CREDENTIALS_ARN)).toHaveLength(1);
      // /token signed with the key from the secret and /summarize verified with it: one read
      // by each of the two functions, however many requests they serve.
      expect(stub.reads.filter((id) => id === JWT_ARN)).toHaveLength(2);
    } finally {
      await env.close();
    }
  });

  it.each([
    ['not JSON', 'http://proxy:8080'],
    [
      'a proxy URL that is not http(s)',
      JSON.stringify({ youtubeProxyUrl: 'ftp://x', youtubeApiKey: '' }),
    ],
    ['missing', undefined],
  ])(
    'answers 503 server-misconfigured, never a 500, when the credentials secret is %s',
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
