// Transcription of a long video without captions (issues 26 and 34) over HTTP: the local host as
// `npm start` runs it, in a process of its own, on DynamoDB Local, with the fake YouTube serving a
// 3-hour talk's audio on loopback (itag 249, ~70 MB of Opus in WebM, a range at a time, as
// googlevideo does) and an OpenAI-compatible fake that takes a fixed time per part (a CPU server's
// time, made up: what it is does not matter here). What the service adds: reading the index,
// downloading and cutting the parts, uploading them, TRANSCRIPTION_CONCURRENCY at a time.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort, type LocalDynamo } from '../infra/local/dynamodb';
import { FAKE_VIDEO_IDS, startFakeYouTube } from '../test/support/fake-youtube';
import { startHearingStub } from '../test/support/hearing-stub';
import { buildLongTranscript } from '../test/support/transcripts';
import { startChild } from './handlers';
import { npmStartArgs } from './local-start';
import { median, type Row, row } from './measure';

/** The fake server's time per part. */
const PART_MS = 2_000;
const CONCURRENCY = 2;
const TALK_MS = 3 * 3_600_000;
const RUNS = 2;
// biome-ignore lint/suspicious/noExplicitAny: JSON as the benchmark reads it
type Json = any;
const user = {
  username: 'bench_transcription',
  email: 'bench_transcription@example.com',
  password: 'amber-lantern-orchard-48',
};

/** The talk's lines over its three hours (what the fake hears in each part). */
function talk() {
  const lines = buildLongTranscript(30_000).segments;
  const every = TALK_MS / lines.length;
  return lines.map((line, i) => ({ ...line, offsetMs: Math.round(i * every), durationMs: 1_000 }));
}

export async function transcriptionBenchmarks(
  dynamo: LocalDynamo,
  log: (line: string) => void,
): Promise<Row[]> {
  const youtube = await startFakeYouTube();
  // Every video ID is the 3-hour talk: each run transcribes a new one.
  youtube.useScenario('no-captions-3h');
  const stt = await startHearingStub(talk());
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    TABLE_NAME: 'bench-transcription',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    YOUTUBE_BASE_URL: youtube.baseUrl,
    TRANSCRIPTION_BASE_URL: stt.baseUrl,
    TRANSCRIPTION_MAX_UPLOAD_MB: '25',
    TRANSCRIPTION_CONCURRENCY: String(CONCURRENCY),
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
    return { status: response.status, body: (await response.json()) as Json };
  };
  try {
    await call('POST', '/register', user);
    const { body: login } = await call('POST', '/token', {
      username: user.username,
      password: user.password,
    });
    const token = login.access_token as string;
    /** One transcription: from the first media request to the last part's answer (ms). */
    const transcribe = async (videoId: string, partMs: number) => {
      youtube.reset();
      stt.uploads.length = 0;
      stt.setDelay(partMs);
      const accepted = await call('POST', '/summarize', { video_url: videoId }, token);
      if (accepted.status !== 202)
        throw new Error(`expected 202: ${JSON.stringify(accepted.body)}`);
      for (;;) {
        const job = await call('GET', `/summaries/${accepted.body.id}`, undefined, token);
        if (job.body.status === 'done') break;
        if (job.body.status !== 'queued' && job.body.status !== 'running') {
          throw new Error(`job ended ${job.body.status}: ${JSON.stringify(job.body.error)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const first = youtube.media[0]?.receivedAt;
      const answered = stt.uploads.map((upload) => upload.answeredAt ?? Number.NaN);
      if (first === undefined || answered.length === 0) throw new Error('nothing transcribed');
      return { ms: Math.max(...answered) - first, parts: stt.uploads.length };
    };
    // The first run loads the worker, the transcription client and the offline model.
    log('transcription: warming up');
    await transcribe(FAKE_VIDEO_IDS['no-captions-3h'], 0);
    const cutting: number[] = [];
    const ratios: number[] = [];
    let parts = 0;
    for (let run = 0; run < RUNS; run++) {
      log(`transcription: run ${run + 1} of ${RUNS}, an instant server`);
      cutting.push((await transcribe(`bench3hc${String(run).padStart(3, '0')}`, 0)).ms);
      log(`transcription: run ${run + 1} of ${RUNS}, ${PART_MS} ms a part`);
      const timed = await transcribe(`bench3hp${String(run).padStart(3, '0')}`, PART_MS);
      parts = timed.parts;
      ratios.push(timed.ms / ((timed.parts * PART_MS) / CONCURRENCY));
    }
    return [
      row(
        'transcription',
        `3-hour talk (itag 249, ~70 MB) in ${parts} parts, a server taking ${PART_MS} ms a part, ${CONCURRENCY} at a time: transcription time ÷ (parts × time ÷ concurrency), p50 of ${RUNS}`,
        median(ratios),
        '×',
        { below: 1.15 },
      ),
      row(
        'transcription',
        `... with an instant server: index, download, cutting and uploads of all ${parts} parts, p50 of ${RUNS}`,
        median(cutting),
        'ms',
        { below: 3_000 },
      ),
    ];
  } finally {
    host.kill('SIGTERM');
    await new Promise((resolve) => host.once('exit', resolve));
    await stt.close();
    await youtube.close();
  }
}
