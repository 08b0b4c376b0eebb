// YOUTUBE_CLIENTS over HTTP: the service asks the clients it names, at the versions it gives.
// (A file of its own: the summary service is built once per process from its configuration.)
import { expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { startSummarizeEnv } from '../../support/summarize-env';

it('asks IOS at 99.1.0 first with YOUTUBE_CLIENTS=IOS@99.1.0, and says so in the metadata', async () => {
  const env = await startSummarizeEnv({ YOUTUBE_CLIENTS: 'IOS@99.1.0' });
  try {
    const response = await env.host.request('POST', '/summarize', {
      json: { video_url: FAKE_VIDEO_IDS.normal },
      token: env.token,
    });

    expect(response.status).toBe(200);
    expect(response.body.metadata.transcript_client).toBe('IOS');
    const first = env.youtube.log.find((request) => request.client);
    expect(first?.client).toMatchObject({
      name: 'IOS',
      version: '99.1.0',
      headerName: '5',
      headerVersion: '99.1.0',
    });
  } finally {
    await env.close();
  }
});
