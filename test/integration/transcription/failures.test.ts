// How a transcription fails, over HTTP (the real stack, the fake YouTube and its media server,
// the OpenAI-compatible stub): a backend that fails or answers garbage is a 502 and caches
// nothing, so the next request transcribes; one that refuses the audio is a 422 with its
// reason; never a 500. And without a backend, the 422 says how to get one.
import { describe, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { comparableProblem } from '../../support/host';
import { startSummarizeEnv, useTranscriptionEnv } from '../../support/summarize-env';
import { REJECTED_REASON } from '../../support/transcription-stub';

const setup = useTranscriptionEnv();

const summarize = (video: string, length = 60) =>
  setup.env.host.request('POST', '/summarize', {
    json: { video_url: video, summary_length: length },
    token: setup.env.token,
  });

describe('a failing transcription service', () => {
  it('is a 502 transcription-error that caches nothing: the next request transcribes again', async () => {
    // The client retries a 5xx twice: three failures make the request fail.
    setup.stt.script(['server-error', 'server-error', 'server-error', 'success']);

    const failed = await summarize(FAKE_VIDEO_IDS.disabled, 80);
    const again = await summarize(FAKE_VIDEO_IDS.disabled, 80);

    expect(failed.status, failed.text).toBe(502);
    expect(failed.body).toMatchObject({
      type: 'urn:tubesum:problem:transcription-error',
      detail: expect.stringMatching(/transcription service answered HTTP 500/),
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.metadata.transcript_source).toBe('transcription');
    expect(setup.stt.requests.map((request) => request.status)).toEqual([500, 500, 500, 200]);
  });

  it('is a 502 when it answers something that is not a transcription', async () => {
    setup.stt.script(['garbage']);

    const answer = await summarize(FAKE_VIDEO_IDS['audio-refused-first'], 81);

    expect(answer.status, answer.text).toBe(502);
    expect(answer.body.type).toBe('urn:tubesum:problem:transcription-error');
    expect(answer.body.detail).toMatch(/not a transcription/);
  });

  it('passes its refusal of the audio on as a 422 with its reason', async () => {
    setup.stt.script(['rejected']);

    const answer = await summarize(FAKE_VIDEO_IDS['audio-foreign-first'], 82);

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body).toMatchObject({
      type: 'urn:tubesum:problem:transcription-rejected',
      backend_reason: REJECTED_REASON,
    });
    expect(answer.body.detail).toContain(REJECTED_REASON);
  });
});

it('is a 502 when it does not answer before the run must hand over, and the run’s time is not spent waiting', async () => {
  // Runs of 8 s, which hand over 5 s before their end.
  const quick = await startSummarizeEnv({
    TRANSCRIPTION_BASE_URL: setup.stt.baseUrl,
    SUMMARIZE_WAIT_MS: '25000',
    JOB_DEADLINE_MS: '8000',
  });
  try {
    setup.stt.reset();
    setup.stt.script(['hang']);

    const answer = await quick.host.request('POST', '/summarize', {
      json: { video_url: FAKE_VIDEO_IDS.disabled, summary_length: 84 },
      token: quick.token,
    });

    expect(answer.status, answer.text).toBe(502);
    expect(answer.body.type).toBe('urn:tubesum:problem:transcription-error');
    expect(answer.body.detail).toMatch(/did not answer in time/);
    expect(setup.stt.requests).toHaveLength(1);
  } finally {
    await quick.close();
  }
});

describe('audio the service cannot download', () => {
  it('never contacts a media host other than googlevideo.com, nor follows a redirect to one', async () => {
    const foreign = await summarize(FAKE_VIDEO_IDS['audio-foreign']);
    const redirected = await summarize(FAKE_VIDEO_IDS['audio-redirect-foreign']);

    expect(foreign.status, foreign.text).toBe(502);
    expect(foreign.body.detail).toMatch(
      /no client's audio could be downloaded.*refused: not a YouTube media host/,
    );
    expect(redirected.status, redirected.text).toBe(502);
    // The fake's media server answered the redirects; the host they named never saw a request.
    expect(setup.env.youtube.media.every((request) => request.status === 302)).toBe(true);
    expect(setup.env.youtube.media.length).toBeGreaterThan(0);
    expect(setup.env.youtube.canaryRequests).toBe(0);
    expect(setup.stt.requests).toHaveLength(0);
  });

  it('uses the next client’s audio when one client’s URLs are on a foreign host', async () => {
    const answer = await summarize(FAKE_VIDEO_IDS['audio-foreign-first'], 83);

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.metadata.transcript_client).toBe('IOS');
    expect(setup.env.youtube.canaryRequests).toBe(0);
  });

  it('says so when YouTube offered the audio only with signed URLs', async () => {
    const answer = await summarize(FAKE_VIDEO_IDS['audio-cipher-only']);

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.type).toBe('urn:tubesum:problem:captions-disabled');
    expect(answer.body.detail).toMatch(/only with signed URLs \(signatureCipher\)/);
    expect(setup.env.youtube.media).toHaveLength(0);
  });
});

it('answers a question about a video no summary transcribed yet with a 422 that says to ask for its summary first', async () => {
  const answer = await setup.env.host.request('POST', '/ask', {
    json: { video_url: FAKE_VIDEO_IDS['no-captions-28mb'], question: 'What is it about?' },
    token: setup.env.token,
  });

  expect(answer.status, answer.text).toBe(422);
  expect(answer.body.type).toBe('urn:tubesum:problem:captions-disabled');
  expect(answer.body.detail).toMatch(/ask for a summary first \(POST \/summarize/);
  expect(setup.env.youtube.media).toHaveLength(0);
  expect(setup.stt.requests).toHaveLength(0);
});

it('tells, without a transcription backend, that one can be configured and how', async () => {
  const plain = await startSummarizeEnv();
  try {
    const answer = await plain.host.request('POST', '/summarize', {
      json: { video_url: FAKE_VIDEO_IDS.disabled },
      token: plain.token,
    });

    expect(comparableProblem(answer)).toMatchObject({ status: 422 });
    expect(answer.body.type).toBe('urn:tubesum:problem:captions-disabled');
    expect(answer.body.detail).toMatch(/TRANSCRIPTION_BASE_URL.*docs\/transcription\.md/);
    expect(plain.youtube.media).toHaveLength(0);
  } finally {
    await plain.close();
  }
});
