// Transcription of a video without captions (issue 26) over HTTP: the local host as `npm start`
// runs it, in a process of its own, on DynamoDB Local, with the fake YouTube serving a 60-minute
// caption-less video's 30 MB of audio on loopback (a range at a time, as googlevideo does) and an
// OpenAI-compatible speech-to-text stub that answers after a fixed time. What the service adds to
// the backend's own time, from the 202 to the job done: the download, the upload, the claim and
// the cache, the summary (offline model), the bookkeeping.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort, type LocalDynamo } from '../infra/local/dynamodb';
import { FAKE_VIDEO_IDS, LONG_AUDIO_BYTES, startFakeYouTube } from '../test/support/fake-youtube';
import { startTranscriptionStub } from '../test/support/transcription-stub';
import { startChild } from './handlers';
import { npmStartArgs } from './local-start';
import { median, type Row, row } from './measure';

/** The backend's answer time: a fixed, made-up figure (what it is does not matter here). */
const BACKEND_MS = 2_000;
const RUNS = 3;
// biome-ignore lint/suspicious/noExplicitAny: JSON as the benchmark reads it
type Json = any;
const user = {
  username: 'bench_transcription',
  email: 'bench_transcription@example.com',
  password: 'amber-lantern-orchard-48',
};

export async function transcriptionBenchmarks(
  dynamo: LocalDynamo,
  log: (line: string) => void,
): Promise<Row[]> {
  const youtube = await startFakeYouTube();
  // Every video ID is the 60-minute caption-less video: each run transcribes a new one.
  youtube.useScenario('no-captions-long');
  const stt = await startTranscriptionStub();
  stt.script([{ delayMs: BACKEND_MS }]);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    TABLE_NAME: 'bench-transcription',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    YOUTUBE_BASE_URL: youtube.baseUrl,
    TRANSCRIPTION_BASE_URL: stt.baseUrl,
    // The 30 MB go to the stub in one upload.
    TRANSCRIPTION_MAX_UPLOAD_MB: '40',
    TRANSCRIPTION_DAILY_MINUTES: '0',
    SUMMARY_DAILY_QUOTA: '0',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    PORT: String(port),
  };
  const host: ChildProcess = await startChild(npmStartArgs(), env, /listening on /);
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, json?: unknown, token?: string) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        prefer: 'respond-async',
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    // Date.now(), as the stubs in this process stamp their requests.
    return { status: response.status, body: (await response.json()) as Json, at: Date.now() };
  };
  try {
    await call('POST', '/register', user);
    const { body: login } = await call('POST', '/token', {
      username: user.username,
      password: user.password,
    });
    const token = login.access_token as string;
    const summarise = async (videoId: string) => {
      const accepted = await call(
        'POST',
        '/summarize',
        { video_url: videoId, summary_length: 150 },
        token,
      );
      if (accepted.status !== 202)
        throw new Error(`expected 202: ${JSON.stringify(accepted.body)}`);
      for (;;) {
        const job = await call('GET', `/summaries/${accepted.body.id}`, undefined, token);
        if (job.body.status === 'done') return { accepted: accepted.at, done: job.at };
        if (job.body.status !== 'queued' && job.body.status !== 'running') {
          throw new Error(`job ended ${job.body.status}: ${JSON.stringify(job.body.error)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // The first run loads the worker, the transcription client and the offline model.
    log('transcription: warming up');
    await summarise(FAKE_VIDEO_IDS['no-captions-long']);
    const phases = { overhead: [], lookup: [], download: [], upload: [], after: [] } as Record<
      'overhead' | 'lookup' | 'download' | 'upload' | 'after',
      number[]
    >;
    for (let run = 0; run < RUNS; run++) {
      youtube.reset();
      stt.requests.length = 0;
      log(`transcription: run ${run + 1} of ${RUNS}`);
      const { accepted, done } = await summarise(`bench60min${run}`);
      const [upload] = stt.requests;
      const media = youtube.media;
      const firstRange = media[0]?.receivedAt;
      const lastRange = media.at(-1)?.answeredAt;
      if (
        !upload?.answeredAt ||
        upload.fileBytes !== LONG_AUDIO_BYTES ||
        !firstRange ||
        !lastRange
      ) {
        throw new Error('the backend did not get the whole audio');
      }
      // The backend's own time: from the whole upload received to its answer sent.
      phases.overhead.push(done - accepted - (upload.answeredAt - upload.receivedAt));
      phases.lookup.push(firstRange - accepted);
      phases.download.push(lastRange - firstRange);
      phases.upload.push(upload.receivedAt - upload.startedAt);
      phases.after.push(done - upload.answeredAt);
    }
    return [
      row(
        'transcription',
        `60-min caption-less video, 30 MB of audio on loopback: 202 to done, less the backend's ${BACKEND_MS} ms, p50 of ${RUNS}`,
        median(phases.overhead),
        'ms',
        { below: 2_000 },
      ),
      row(
        'transcription',
        '... 202 to the first range asked (the job picked up, YouTube asked, the claim)',
        median(phases.lookup),
        'ms',
      ),
      row(
        'transcription',
        '... the download (3 ranges of at most 10 MB)',
        median(phases.download),
        'ms',
      ),
      row(
        'transcription',
        '... the upload to the backend (multipart)',
        median(phases.upload),
        'ms',
      ),
      row(
        'transcription',
        '... the backend’s answer to done (the transcript kept, the summary, the poll)',
        median(phases.after),
        'ms',
      ),
    ];
  } finally {
    host.kill('SIGTERM');
    await new Promise((resolve) => host.once('exit', resolve));
    await stt.close();
    await youtube.close();
  }
}
