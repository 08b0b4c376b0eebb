// Videos without captions, transcribed by an OpenAI-compatible server, over HTTP: the real
// handler stack and worker against DynamoDB Local, the fake YouTube serving the recorded
// caption-less player answer and its audio (a range at a time, as googlevideo does), and a
// speech-to-text stub that parses the real client's multipart upload.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { MEDIA_RANGE_BYTES } from '../../../lib/youtube/audio/media';
import { FAKE_VIDEO_IDS, LONG_AUDIO_BYTES } from '../../support/fake-youtube';
import { callMcpTool } from '../../support/mcp-tool';
import {
  jobIdOf,
  OPENAI_MODEL_NAME,
  pollJob,
  type SummarizeEnv,
  useTranscriptionEnv,
} from '../../support/summarize-env';
import { loadSharedTranscript } from '../../support/transcripts';

const setup = useTranscriptionEnv({
  TRANSCRIPTION_MODEL: 'whisper-large-v3',
  TRANSCRIPTION_DAILY_MINUTES: '0',
});

const summarize = (body: Record<string, unknown>, prefer?: string) =>
  setup.env.host.request('POST', '/summarize', {
    json: body,
    token: setup.env.token,
    ...(prefer ? { headers: { prefer } } : {}),
  });

it('summarises a video without captions from a transcription of its smallest audio format: its init segment and whole fragments, as served', async () => {
  // The recording lasts 4:48: what the server says it heard past that is dropped.
  const heard = loadSharedTranscript().segments;
  const submitted = await summarize(
    { video_url: FAKE_VIDEO_IDS.disabled, summary_length: 60 },
    'respond-async',
  );
  const { last, seen } = await pollJob(setup.env.host, setup.env.token, jobIdOf(submitted), {
    everyMs: 20,
  });

  expect(last.body.status, last.text).toBe('done');
  const { metadata, key_points: keyPoints, chapters } = last.body.result;
  expect(metadata).toMatchObject({
    transcript_source: 'transcription',
    transcript_language: 'en',
    transcript_auto_generated: true,
    transcript_timing: 'segments',
  });
  // The smallest audio-only format of the recording: itag 139 (AAC in fragmented MP4), short
  // enough for one part: its init segment and every fragment, without the index (sidx).
  const served = servedAudio(setup.env.youtube, 139);
  const upload = setup.stt.requests[0];
  expect(setup.stt.requests).toHaveLength(1);
  expect(upload).toMatchObject({
    model: 'whisper-large-v3',
    responseFormat: 'verbose_json',
    granularities: ['segment'],
    fileName: `${FAKE_VIDEO_IDS.disabled}-part1of1.m4a`,
    fileBytes: served.bytes.byteLength - (served.indexRange.end - served.indexRange.start + 1),
  });
  const part = Buffer.concat([
    served.bytes.subarray(0, served.indexRange.start),
    served.bytes.subarray(served.indexRange.end + 1),
  ]);
  // Mended as a part is (parts.ts): the moov's mehd (the whole audio's length) becomes free.
  const mehd = part.indexOf('mehd', 0, 'latin1');
  expect(mehd).toBeGreaterThan(0);
  part.write('free', mehd, 'latin1');
  expect(upload?.sha256).toBe(createHash('sha256').update(part).digest('hex'));
  // Key points start where transcribed segments start, none past the video's end.
  const starts = new Set(heard.map((segment) => segment.offsetMs / 1000));
  expect(keyPoints.length).toBeGreaterThan(0);
  for (const point of keyPoints) {
    expect(starts).toContain(point.start_seconds);
    expect(point.start_seconds).toBeLessThanOrEqual(metadata.duration_seconds);
  }
  // Under five minutes: no chapters, though the server's answer ran on for 20.
  expect(chapters).toEqual([]);
  expect(metadata.transcript_word_count).toBeLessThan(loadSharedTranscript().wordCount / 2);
  expect(seen.map((job) => (job as { progress: { stage: string } }).progress.stage)).toContain(
    'transcribing',
  );
});

it('uploads a format whose index does not read whole, as it was served', async () => {
  const video = FAKE_VIDEO_IDS['index-garbage'];

  const answer = await summarize({ video_url: video, summary_length: 60 });

  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.metadata.transcript_source).toBe('transcription');
  const ranges = setup.env.youtube.media.map((request) => request.range);
  // The init segment and index first (a few hundred bytes that do not read), then all of it.
  expect(ranges[0]?.[0]).toBe(0);
  expect(ranges[0]?.[1]).toBeLessThan(2_000);
  expect(setup.stt.requests).toHaveLength(1);
  expect(setup.stt.requests[0]?.fileName).toBe(`${video}.m4a`);
  expect(setup.stt.requests[0]?.fileBytes).toBe(1_758_945);
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
  const question = await setup.env.host.request('POST', '/ask', {
    json: { video_url: video, question: 'What is a convolution?' },
    token: setup.env.token,
  });
  const page = (await callMcpTool(setup.env.host, setup.env.token, 'get_transcript', {
    video_url: video,
  })) as { structuredContent: { source: string; language: string } };

  for (const answer of [first, otherLength, otherModel, question]) {
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.metadata.transcript_source).toBe('transcription');
  }
  expect(page.structuredContent).toMatchObject({ source: 'transcription', language: 'en' });
  expect(setup.stt.requests).toHaveLength(1);
  // ANDROID's audio URL answered 403: IOS's was downloaded, and the transcript names it.
  expect(first.body.metadata.transcript_client).toBe('IOS');
  expect(setup.env.youtube.media.filter((request) => request.status === 403)).toHaveLength(1);
});

it('transcribes once for identical and for different summaries of one video asked at the same time', async () => {
  const video = FAKE_VIDEO_IDS['audio-foreign-first'];
  setup.stt.script([{ delayMs: 1_500 }]);

  const submitted = await Promise.all([
    summarize({ video_url: video, summary_length: 70 }, 'respond-async'),
    summarize({ video_url: video, summary_length: 70 }, 'respond-async'),
    summarize({ video_url: video, summary_length: 71 }, 'respond-async'),
  ]);
  const jobs = await Promise.all(
    submitted.map(
      async (answer) => (await pollJob(setup.env.host, setup.env.token, jobIdOf(answer))).last,
    ),
  );

  for (const job of jobs) {
    expect(job.body.status, job.text).toBe('done');
    expect(job.body.result.metadata.transcript_source).toBe('transcription');
  }
  expect(setup.stt.requests).toHaveLength(1);
});

it('shows the transcribing stage on a job that waits for another run’s transcription of its video', {
  timeout: 90_000,
}, async () => {
  const video = FAKE_VIDEO_IDS['no-captions-28mb'];
  // The backend answers only when the test says: both runs are then under way.
  setup.stt.script(['held']);
  const transcribing = (job: { progress?: { stage?: string } }) =>
    job.progress?.stage === 'transcribing';

  const first = jobIdOf(await summarize({ video_url: video, summary_length: 72 }, 'respond-async'));
  await pollJob(setup.env.host, setup.env.token, first, { until: transcribing });
  const second = jobIdOf(
    await summarize({ video_url: video, summary_length: 73 }, 'respond-async'),
  );
  const waiting = await pollJob(setup.env.host, setup.env.token, second, {
    until: (job) => transcribing(job) || ['done', 'failed', 'cancelled'].includes(job.status),
  });
  setup.stt.release();
  const done = await Promise.all(
    [first, second].map(async (id) => (await pollJob(setup.env.host, setup.env.token, id)).last),
  );

  expect(waiting.last.body.progress.stage, waiting.last.text).toBe('transcribing');
  for (const job of done) expect(job.body.status, job.text).toBe('done');
  // One transcription: its parts of at most 10 minutes, each uploaded once.
  const count = setup.stt.requests.length;
  expect(count).toBeGreaterThanOrEqual(2);
  expect(setup.stt.requests.map((request) => request.fileName).sort()).toEqual(
    Array.from({ length: count }, (_, i) => `${video}-part${i + 1}of${count}.m4a`),
  );
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
  expect(setup.stt.requests).toHaveLength(1);
  expect(setup.env.youtube.media.length).toBeGreaterThan(0);
});

it('says transcript_source "captions" for a video with captions, and transcribes nothing', async () => {
  const answer = await summarize({ video_url: FAKE_VIDEO_IDS.normal, summary_length: 60 });

  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.metadata.transcript_source).toBe('captions');
  expect(setup.stt.requests).toHaveLength(0);
  expect(setup.env.youtube.media).toHaveLength(0);
});

it('downloads an hour of audio (30 MB) as its index, then each 10-minute part in ranges of at most 10 MB, with its client’s User-Agent', {
  timeout: 150_000,
}, async () => {
  const submitted = await summarize(
    { video_url: FAKE_VIDEO_IDS['no-captions-long'], summary_length: 60 },
    'respond-async',
  );
  const { last, seen } = await pollJob(setup.env.host, setup.env.token, jobIdOf(submitted), {
    timeoutMs: 120_000,
  });

  expect(last.body.status, last.text).toBe('done');
  const served = servedAudio(setup.env.youtube, 139);
  const ranges = setup.env.youtube.media.map(
    (request): [number, number] => request.range ?? [0, -1],
  );
  // First the init segment and the index (a few KB), then the fragments, part by part, each
  // byte once.
  expect(ranges[0]).toEqual([0, served.indexRange.end]);
  const parts = ranges.slice(1).sort((a, b) => a[0] - b[0]);
  expect(parts[0]?.[0]).toBe(served.indexRange.end + 1);
  expect(parts.at(-1)?.[1]).toBe(served.bytes.byteLength - 1);
  for (const [i, [first, lastByte]] of parts.entries()) {
    expect(lastByte - first + 1).toBeLessThanOrEqual(MEDIA_RANGE_BYTES);
    if (i > 0) expect(first).toBe((parts[i - 1]?.[1] ?? 0) + 1);
  }
  expect(served.bytes.byteLength).toBeGreaterThan(LONG_AUDIO_BYTES * 0.9);
  expect(setup.env.youtube.media.every((request) => request.status === 206)).toBe(true);
  expect(setup.env.youtube.media[0]?.userAgent).toMatch(/^com\.google\.android\.youtube\//);
  // Parts of at most 10 minutes of whole fragments (a few seconds each: six or seven), each
  // uploaded once, the job counting them as they were transcribed.
  const count = setup.stt.requests.length;
  expect(count).toBeGreaterThanOrEqual(Math.ceil(served.durationMs / 600_000));
  expect(count).toBeLessThanOrEqual(Math.ceil(served.durationMs / 600_000) + 1);
  expect(setup.stt.requests.map((request) => request.fileName).sort()).toEqual(
    Array.from(
      { length: count },
      (_, i) => `${FAKE_VIDEO_IDS['no-captions-long']}-part${i + 1}of${count}.m4a`,
    ),
  );
  const counted = seen.flatMap((job) => {
    const {
      stage,
      parts_done: done,
      parts_total: total,
    } = (job as { progress: { stage: string; parts_done: number; parts_total: number } }).progress;
    return stage === 'transcribing' && total > 0 ? [`${done}/${total}`] : [];
  });
  expect(counted.length).toBeGreaterThan(0);
  expect(counted.every((parts) => parts.endsWith(`/${count}`))).toBe(true);
});

/** The DASH file the fake googlevideo served for an itag of the last video it served. */
function servedAudio(youtube: SummarizeEnv['youtube'], itag: number) {
  const request = youtube.media.find((asked) => asked.itag === itag);
  if (!request?.file) throw new Error(`no DASH file of itag ${itag} was served`);
  return request.file;
}
