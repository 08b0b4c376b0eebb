// Videos without captions, transcribed by an OpenAI-compatible server, over HTTP: the real
// handler stack and worker against DynamoDB Local, the fake YouTube serving the recorded
// caption-less player answer and its audio (a range at a time, as googlevideo does), and a
// speech-to-text stub that parses the real client's multipart upload.
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MEDIA_RANGE_BYTES } from '../../../lib/youtube/audio/media';
import { apiKeyOf } from '../../support/api-keys';
import { audioBytes } from '../../support/fake-media';
import { FAKE_VIDEO_IDS, LONG_AUDIO_BYTES } from '../../support/fake-youtube';
import {
  jobIdOf,
  OPENAI_MODEL_NAME,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
} from '../../support/summarize-env';
import { startTranscriptionStub, type TranscriptionStub } from '../../support/transcription-stub';
import { loadSharedTranscript } from '../../support/transcripts';

let env: SummarizeEnv;
let stt: TranscriptionStub;

beforeAll(async () => {
  stt = await startTranscriptionStub();
  env = await startSummarizeEnv({
    TRANSCRIPTION_BASE_URL: stt.baseUrl,
    // A transcription adds a download and an upload: answers wait for it (no wall-clock bound).
    SUMMARIZE_WAIT_MS: '25000',
    TRANSCRIPTION_MODEL: 'whisper-large-v3',
    TRANSCRIPTION_DAILY_MINUTES: '0',
    // The 60-minute video's 30 MB go to this server in one upload.
    TRANSCRIPTION_MAX_UPLOAD_MB: '40',
  });
});
afterAll(async () => {
  await env?.close();
  await stt?.close();
});
beforeEach(() => {
  stt.reset();
  env.youtube.reset();
});

const summarize = (body: Record<string, unknown>, prefer?: string) =>
  env.host.request('POST', '/summarize', {
    json: body,
    token: env.token,
    ...(prefer ? { headers: { prefer } } : {}),
  });

it('summarises a video without captions from a transcription of its smallest audio format, uploaded as downloaded', async () => {
  const submitted = await summarize(
    { video_url: FAKE_VIDEO_IDS.disabled, summary_length: 60 },
    'respond-async',
  );
  const { last, seen } = await pollJob(env.host, env.token, jobIdOf(submitted), { everyMs: 20 });

  expect(last.body.status, last.text).toBe('done');
  const { metadata, key_points: keyPoints, chapters } = last.body.result;
  expect(metadata).toMatchObject({
    transcript_source: 'transcription',
    transcript_language: 'en',
    transcript_auto_generated: true,
  });
  // The smallest audio-only format of the recording: itag 139 (1,758,945 bytes).
  const upload = stt.requests[0];
  expect(stt.requests).toHaveLength(1);
  expect(upload).toMatchObject({
    model: 'whisper-large-v3',
    responseFormat: 'verbose_json',
    granularities: ['segment'],
    fileName: `${FAKE_VIDEO_IDS.disabled}.m4a`,
    fileBytes: 1_758_945,
  });
  const served = audioBytes(FAKE_VIDEO_IDS.disabled, 139, 1_758_945);
  expect(upload?.sha256).toBe(createHash('sha256').update(served).digest('hex'));
  // Key points start where transcribed segments start.
  const starts = new Set(loadSharedTranscript().segments.map((segment) => segment.offsetMs / 1000));
  expect(keyPoints.length).toBeGreaterThan(0);
  for (const point of keyPoints) expect(starts).toContain(point.start_seconds);
  // The transcription runs 20 minutes: it is divided into chapters, each starting where a
  // transcribed segment starts (the first at 0).
  expect(metadata.chapters_source).toBe('offline');
  expect(chapters.length).toBeGreaterThanOrEqual(2);
  expect(chapters[0].start_seconds).toBe(0);
  for (const chapter of chapters.slice(1)) expect(starts).toContain(chapter.start_seconds);
  expect(seen.map((job) => (job as { progress: { stage: string } }).progress.stage)).toContain(
    'transcribing',
  );
});

it('transcribes a video once for summaries of other lengths and models, questions and MCP calls', async () => {
  const video = FAKE_VIDEO_IDS['audio-refused-first'];
  const first = await summarize({ video_url: video, summary_length: 60 });
  const otherLength = await summarize({ video_url: video, summary_length: 61 });
  const otherModel = await summarize({
    video_url: video,
    summary_length: 60,
    used_model: OPENAI_MODEL_NAME,
  });
  const question = await env.host.request('POST', '/ask', {
    json: { video_url: video, question: 'What is a convolution?' },
    token: env.token,
  });
  const client = new Client({ name: 'transcription-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${env.host.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${await apiKeyOf(env.host, env.token)}` } },
    }),
  );
  const page = (await client.callTool({
    name: 'get_transcript',
    arguments: { video_url: video },
  })) as unknown as { structuredContent: { source: string; language: string } };
  await client.close();

  for (const answer of [first, otherLength, otherModel, question]) {
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.metadata.transcript_source).toBe('transcription');
  }
  expect(page.structuredContent).toMatchObject({ source: 'transcription', language: 'en' });
  expect(stt.requests).toHaveLength(1);
  // ANDROID's audio URL answered 403: IOS's was downloaded, and the transcript names it.
  expect(first.body.metadata.transcript_client).toBe('IOS');
  expect(env.youtube.media.filter((request) => request.status === 403)).toHaveLength(1);
});

it('transcribes once for identical and for different summaries of one video asked at the same time', async () => {
  const video = FAKE_VIDEO_IDS['audio-foreign-first'];
  stt.script([{ delayMs: 1_500 }]);

  const submitted = await Promise.all([
    summarize({ video_url: video, summary_length: 70 }, 'respond-async'),
    summarize({ video_url: video, summary_length: 70 }, 'respond-async'),
    summarize({ video_url: video, summary_length: 71 }, 'respond-async'),
  ]);
  const jobs = await Promise.all(
    submitted.map(async (answer) => (await pollJob(env.host, env.token, jobIdOf(answer))).last),
  );

  for (const job of jobs) {
    expect(job.body.status, job.text).toBe('done');
    expect(job.body.result.metadata.transcript_source).toBe('transcription');
  }
  expect(stt.requests).toHaveLength(1);
});

it('shows the transcribing stage on a job that waits for another run’s transcription of its video', {
  timeout: 90_000,
}, async () => {
  const video = FAKE_VIDEO_IDS['no-captions-28mb'];
  // The backend answers only when the test says: both runs are then under way.
  stt.script(['held']);
  const transcribing = (job: { progress?: { stage?: string } }) =>
    job.progress?.stage === 'transcribing';

  const first = jobIdOf(await summarize({ video_url: video, summary_length: 72 }, 'respond-async'));
  await pollJob(env.host, env.token, first, { until: transcribing });
  const second = jobIdOf(
    await summarize({ video_url: video, summary_length: 73 }, 'respond-async'),
  );
  const waiting = await pollJob(env.host, env.token, second, {
    until: (job) => transcribing(job) || ['done', 'failed', 'cancelled'].includes(job.status),
  });
  stt.release();
  const done = await Promise.all(
    [first, second].map(async (id) => (await pollJob(env.host, env.token, id)).last),
  );

  expect(waiting.last.body.progress.stage, waiting.last.text).toBe('transcribing');
  for (const job of done) expect(job.body.status, job.text).toBe('done');
  expect(stt.requests).toHaveLength(1);
});

it.each([
  ['offers its caption tracks only behind a PO token (exp=xpe)', 'po-token'],
  ['answers its caption track with an empty 200', 'empty-track'],
] as const)('transcribes the audio of a video that %s', async (_what, scenario) => {
  const answer = await summarize({ video_url: FAKE_VIDEO_IDS[scenario], summary_length: 60 });

  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.metadata).toMatchObject({
    transcript_source: 'transcription',
    transcript_language: 'en',
  });
  expect(stt.requests).toHaveLength(1);
  expect(env.youtube.media.length).toBeGreaterThan(0);
});

it('says transcript_source "captions" for a video with captions, and transcribes nothing', async () => {
  const answer = await summarize({ video_url: FAKE_VIDEO_IDS.normal, summary_length: 60 });

  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.metadata.transcript_source).toBe('captions');
  expect(stt.requests).toHaveLength(0);
  expect(env.youtube.media).toHaveLength(0);
});

it('downloads an hour of audio (30 MB) in ranges of at most 10 MB, sent with its client’s User-Agent', {
  timeout: 150_000,
}, async () => {
  const submitted = await summarize(
    { video_url: FAKE_VIDEO_IDS['no-captions-long'], summary_length: 60 },
    'respond-async',
  );
  const { last } = await pollJob(env.host, env.token, jobIdOf(submitted), { timeoutMs: 120_000 });

  expect(last.body.status, last.text).toBe('done');
  const ranges = env.youtube.media.map((request) => request.range);
  expect(ranges).toEqual([
    [0, MEDIA_RANGE_BYTES - 1],
    [MEDIA_RANGE_BYTES, 2 * MEDIA_RANGE_BYTES - 1],
    [2 * MEDIA_RANGE_BYTES, LONG_AUDIO_BYTES - 1],
  ]);
  expect(env.youtube.media.every((request) => request.status === 206)).toBe(true);
  expect(env.youtube.media[0]?.userAgent).toMatch(/^com\.google\.android\.youtube\//);
  expect(stt.requests[0]?.fileBytes).toBe(LONG_AUDIO_BYTES);
});
