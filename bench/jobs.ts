// Summaries as jobs (issue 17) over HTTP: the local host as `npm start` runs it (its in-process
// queue and worker) in a process of its own, on DynamoDB Local, with the fake YouTube and the
// Bedrock stub behind a proxy that paces each answer like a real model. How soon a request gets
// its 202, how much a 3-hour video gains from summarising its parts side by side, and what
// polling a job costs; and that every job the section started ended `done`.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { freePort, type LocalDynamo } from '../infra/local/dynamodb';
import { functionLoader } from '../infra/local/server';
import { createDocumentClient } from '../lib/aws/dynamodb';
import { loadConfig } from '../lib/config';
import { type BedrockStub, startBedrockStub } from '../test/support/bedrock-stub';
import { startDynamoProxy } from '../test/support/dynamo-proxy';
import { FAKE_VIDEO_IDS, startFakeYouTube } from '../test/support/fake-youtube';
import {
  buildLongTranscript,
  loadSharedTranscript,
  toCaptionXml,
} from '../test/support/transcripts';
import { expectStatus, invoke, startChild } from './handlers';
import { npmStartArgs } from './local-start';
import { median, quantile, type Row, row, timeRuns } from './measure';

const videoUrl = (id: string) => `https://www.youtube.com/watch?v=${id}`;
/** A 3-hour video never asked about before (its transcript is fetched): `long3hour_0`, ... */
const longVideo = (index: number) => videoUrl(`long3hour_${index}`);
const LONG_WORDS = 30_000;
const user = {
  username: 'bench_jobs',
  email: 'bench_jobs@example.com',
  password: 'amber-lantern-orchard-47',
};

/**
 * A Bedrock model with a small context (added with MODEL_CATALOG_JSON), so that a 3-hour
 * transcript takes a dozen parts and one combination, as a long lecture does with a model of
 * 8k tokens (Bedrock's own have 128k or more: with them a 3-hour video is one call).
 */
const SMALL_MODEL = {
  name: 'small-context',
  modelId: 'us.example.small-context-v1:0',
  contextTokens: 8_000,
  maxOutputTokens: 2_000,
};
const PARTS_AT_ONCE = 4;

/** How long a model takes to answer a Converse call that made `outputTokens` tokens. */
type Pace = (outputTokens: number) => number;

/**
 * Roughly Amazon Nova Micro on demand. An assumption, erring slow: 400 ms to the first token
 * (Vercel's AI Gateway lists Nova Micro on Bedrock at 0.3 s p50; our prompts are several
 * thousand tokens long), then 150 output tokens a second (the same page lists 141 for the larger
 * Nova Pro). Converse answers once the last token is made.
 */
const NOVA_MICRO_PACE: Pace = (outputTokens) => 400 + (outputTokens / 150) * 1000;
const PACE_LABEL = '400 ms + 150 tokens/s';

/** One model call as the proxy saw it. */
interface PacedCall {
  kind: 'part' | 'group' | 'final' | 'whole';
  receivedAt: number;
  answeredAt: number;
  outputTokens: number;
  delayMs: number;
}

/** Which step of a summary a Converse request is (the prompts of lib/summaries/llm/prompt.ts). */
function kindOf(body: string): PacedCall['kind'] {
  if (/This is part \d+ of \d+ of the transcript/.test(body)) return 'part';
  if (/Below are summaries of parts \d+-\d+/.test(body)) return 'group';
  if (/Below are summaries of the \d+ consecutive parts/.test(body)) return 'final';
  return 'whole';
}

/**
 * A proxy in front of the Bedrock stub that holds each answer for what `pace` gives its output
 * tokens (as the stub counts them: its answer's length / 4). The stub's own `delayMs` is fixed
 * per scripted step; a delay that follows each answer's length needs the answer first.
 */
async function startPacedBedrock(stub: BedrockStub) {
  const calls: PacedCall[] = [];
  let pace = NOVA_MICRO_PACE;
  const server = createServer(async (request, response) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const receivedAt = performance.now();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (['host', 'connection', 'content-length', 'keep-alive'].includes(name)) continue;
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const upstream = await fetch(stub.endpoint + request.url, {
        method: request.method ?? 'POST',
        headers,
        body,
      });
      const text = await upstream.text();
      if (upstream.ok) {
        const outputTokens =
          (JSON.parse(text) as { usage?: { outputTokens?: number } }).usage?.outputTokens ?? 0;
        const delayMs = pace(outputTokens);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        const kind = kindOf(body.toString('utf8'));
        calls.push({ kind, receivedAt, answeredAt: performance.now(), outputTokens, delayMs });
      }
      const answerHeaders: Record<string, string> = {};
      for (const name of ['content-type', 'x-amzn-requestid', 'x-amzn-errortype']) {
        const value = upstream.headers.get(name);
        if (value !== null) answerHeaders[name] = value;
      }
      response.writeHead(upstream.status, answerHeaders).end(text);
    } catch (error) {
      response.writeHead(500, { 'x-amzn-errortype': 'InternalServerException' });
      response.end(JSON.stringify({ message: String(error) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Every successful call, in the order answered. */
    calls,
    /** How long answers take from now on. */
    get pace() {
      return pace;
    },
    set pace(next: Pace) {
      pace = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A job as GET /summaries/{id} shows it (what the bench reads of it). */
interface JobBody {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: { stage: string; parts_done: number; parts_total: number };
  error: { type: string; detail?: string } | null;
}

const ended = (job: JobBody) =>
  job.status === 'done' || job.status === 'failed' || job.status === 'cancelled';

interface Answer {
  body: unknown;
  /** When the whole answer had arrived (performance.now()). */
  at: number;
}

/** A small client of the host; any answer but `expected` throws. */
function apiClient(base: string) {
  return async (
    method: string,
    path: string,
    expected: number,
    options: { json?: unknown; token?: string; prefer?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.prefer) headers.prefer = options.prefer;
    const response = await fetch(base + path, {
      method,
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
    const text = await response.text();
    if (response.status !== expected) {
      throw new Error(`${method} ${path}: expected ${expected}, got ${response.status}: ${text}`);
    }
    return {
      body: text === '' ? undefined : JSON.parse(text),
      at: performance.now(),
    };
  };
}
type Api = ReturnType<typeof apiClient>;

/**
 * Polls a job every `everyMs` until `until` holds or it ended; the last answer and when it
 * arrived. Throws after `timeoutMs`.
 */
async function pollJob(
  api: Api,
  token: string,
  id: string,
  until: (job: JobBody) => boolean = ended,
  everyMs = 50,
  timeoutMs = 180_000,
): Promise<{ job: JobBody; at: number }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await api('GET', `/summaries/${id}`, 200, { token });
    const job = answer.body as JobBody;
    if (until(job) || ended(job)) return { job, at: answer.at };
    if (performance.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * The DynamoDB calls a new summary's 202 makes (`Prefer: respond-async`), counted: the handler of
 * POST /summarize in this process, as the local host builds it from the same settings, behind a
 * proxy that lists each call to DynamoDB Local, with a queue that only takes the message (so no
 * run's calls mix in, as they would in the host process). The second of two requests: the first
 * pays the handler's one-time work.
 */
async function dynamoCallsBefore202(
  env: NodeJS.ProcessEnv,
  token: string,
  summaryLengths: readonly [number, number],
): Promise<string[]> {
  const proxy = await startDynamoProxy(String(env.AWS_ENDPOINT_URL_DYNAMODB));
  try {
    const config = loadConfig({ ...env, AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint });
    const load = functionLoader(config, { queue: { send: async () => undefined } });
    const summarize = await load('summarize');
    const accept = (summary_length: number) =>
      expectStatus(
        invoke(
          summarize,
          'summarize',
          'POST',
          '/summarize',
          { video_url: videoUrl(FAKE_VIDEO_IDS.normal), used_model: 'nova-micro', summary_length },
          token,
          { prefer: 'respond-async' },
        ),
        202,
      );
    await accept(summaryLengths[0]);
    const before = proxy.calls.length;
    await accept(summaryLengths[1]);
    return proxy.calls.slice(before);
  } finally {
    await proxy.close();
  }
}

/** The longest a list of calls takes on `slots` slots, each call to the first free one. */
function makespan(delays: readonly number[], slots: number): number {
  const free = new Array<number>(slots).fill(0);
  for (const delay of delays) {
    const first = free.indexOf(Math.min(...free));
    free[first] = (free[first] ?? 0) + delay;
  }
  return Math.max(0, ...free);
}

export async function jobBenchmarks(
  dynamo: LocalDynamo,
  log: (line: string) => void,
): Promise<Row[]> {
  const youtube = await startFakeYouTube();
  // Every video ID answers as a normal video does, so each 3-hour run can be a new video.
  youtube.useScenario('normal');
  const stub = await startBedrockStub();
  const bedrock = await startPacedBedrock(stub);
  const port = await freePort();
  const table = 'bench-jobs';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    TABLE_NAME: table,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_API_BASE_URL: youtube.baseUrl,
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.endpoint,
    // The stub wants signed requests; any key signs (and nothing here reaches AWS).
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    MODEL_CATALOG_JSON: JSON.stringify([SMALL_MODEL]),
    BEDROCK_CONCURRENCY: String(PARTS_AT_ONCE),
    SUMMARY_DAILY_QUOTA: '0',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    PORT: String(port),
  };
  for (const name of ['AWS_SESSION_TOKEN', 'AWS_PROFILE']) delete env[name];
  // What `npm start` runs, without npm in between.
  const host: ChildProcess = await startChild(npmStartArgs(), env, /listening on /);
  const db = createDocumentClient(
    loadConfig({ AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint, TABLE_NAME: table }),
  );
  const api = apiClient(`http://127.0.0.1:${port}`);
  /** Every job the section started, and how it ended. */
  const outcomes = new Map<string, JobBody['status']>();
  const rows: Row[] = [];
  try {
    await api('POST', '/register', 201, { json: user });
    const login = await api('POST', '/token', 200, {
      json: { username: user.username, password: user.password },
    });
    const token = (login.body as { access_token: string }).access_token;
    const summarize = (body: Record<string, unknown>) =>
      api('POST', '/summarize', 202, { json: body, token, prefer: 'respond-async' });

    // What the rows below are made of: DynamoDB Local round trips, one after another.
    log('jobs: one DynamoDB Local read');
    const readTimes = await timeRuns(
      () =>
        db.send(
          new GetCommand({
            TableName: table,
            Key: { pk: `USERNAME#${user.username}` },
            ConsistentRead: true,
          }),
        ),
      300,
      20,
    );
    const oneRead = median(readTimes);
    rows.push(row('jobs', 'one DynamoDB Local read p50', oneRead, 'ms'));

    // 1. Time to 202. Each request a new summary (its own summary_length) of a model whose run
    // outlasts the 202 by far: a fixed 300 ms per call, so that the runs these requests leave
    // behind (the host's worker makes them, JOB_CONCURRENCY at a time, while the next requests
    // are answered, as on any busy host) are done in seconds.
    log('jobs: time to 202 (Prefer: respond-async, new summaries)');
    youtube.setEnglishTrack(toCaptionXml(loadSharedTranscript().segments));
    bedrock.pace = () => 300;
    let length = 100;
    const accepted: string[] = [];
    const acceptTimes = await timeRuns(
      async () => {
        const answer = await summarize({
          video_url: videoUrl(FAKE_VIDEO_IDS.normal),
          used_model: 'nova-micro',
          summary_length: length++,
        });
        const job = answer.body as JobBody;
        if (job.status !== 'queued' && job.status !== 'running') {
          throw new Error(`a 202 with a job ${job.status}`);
        }
        accepted.push(job.id);
      },
      100,
      10,
    );
    // A 202 is what a client waits for before it can show anything, and it is bookkeeping
    // only, never YouTube or the model: DynamoDB calls in a row (counted below) and an enqueue
    // (deployed, an SQS send). 250 ms at p99 is a quarter of the ~1 s after which people notice
    // a wait, and leaves room for DynamoDB Local's tail on a shared 2-core machine.
    log('jobs: the DynamoDB calls of a new summary’s 202, counted');
    const calls = await dynamoCallsBefore202(env, token, [length++, length++]);
    log(`jobs: ... ${calls.length}: ${calls.join(', ')}`);
    rows.push(
      row('jobs', 'time to 202, new summary p50', median(acceptTimes), 'ms'),
      row('jobs', 'time to 202, new summary p99', quantile(acceptTimes, 0.99), 'ms', {
        below: 250,
      }),
      row('jobs', 'DynamoDB calls before a new summary’s 202', calls.length, 'calls'),
    );
    log(`jobs: waiting for the ${accepted.length} runs the 202s left behind`);
    const drainStarted = performance.now();
    for (const id of accepted) {
      const { job } = await pollJob(api, token, id, ended, 250);
      outcomes.set(id, job.status);
    }
    log(`jobs: ... done ${Math.round(performance.now() - drainStarted)} ms after the last 202`);

    // 2. A 3-hour transcript through a small-context Bedrock model, its parts PARTS_AT_ONCE at
    // a time, at a real model's pace: POST (respond-async) until GET /summaries/{id} says done.
    bedrock.pace = NOVA_MICRO_PACE;
    youtube.setEnglishTrack(toCaptionXml(buildLongTranscript(LONG_WORDS).segments));
    const runs: {
      wall: number;
      parts: number;
      calls: number;
      sequential: number;
      floor: number;
      beforeFirstCall: number;
      afterLastAnswer: number;
    }[] = [];
    let doneJob = '';
    for (let run = 0; run < 3; run++) {
      const before = bedrock.calls.length;
      const started = performance.now();
      // A new video each time, at the default summary_length: what a client asks by default.
      const answer = await summarize({ video_url: longVideo(run), used_model: SMALL_MODEL.name });
      const id = (answer.body as JobBody).id;
      const { job, at } = await pollJob(api, token, id);
      outcomes.set(id, job.status);
      if (job.status !== 'done') {
        log(`jobs: 3-hour video ${run + 1}/3 ended ${job.status}: ${JSON.stringify(job.error)}`);
        continue;
      }
      doneJob = id;
      const made = bedrock.calls.slice(before);
      const delays = (kind: PacedCall['kind']) =>
        made.filter((call) => call.kind === kind).map((call) => call.delayMs);
      const result = {
        wall: at - started,
        parts: job.progress.parts_total,
        calls: made.length,
        sequential: made.reduce((sum, call) => sum + call.delayMs, 0),
        // What the calls take with no overhead at all: the parts PARTS_AT_ONCE at a time, then
        // the combinations (a level of groups, if any, side by side too; then the final one).
        floor:
          makespan(delays('part'), PARTS_AT_ONCE) +
          makespan(delays('group'), PARTS_AT_ONCE) +
          delays('final').reduce((sum, delay) => sum + delay, 0),
        beforeFirstCall: Math.min(...made.map((call) => call.receivedAt)) - started,
        afterLastAnswer: at - Math.max(...made.map((call) => call.answeredAt)),
      };
      runs.push(result);
      log(
        `jobs: 3-hour video ${run + 1}/3: ${result.parts} parts, ${result.calls} model calls, ` +
          `${Math.round(result.wall)} ms (one after another ${Math.round(result.sequential)} ms, ` +
          `floor ${Math.round(result.floor)} ms)`,
      );
    }
    if (runs.length > 0) {
      const of = (field: keyof (typeof runs)[number]) => median(runs.map((run) => run[field]));
      const words = LONG_WORDS.toLocaleString('en');
      const model = `${SMALL_MODEL.contextTokens / 1000}k-token model`;
      rows.push(
        row(
          'jobs',
          `3-hour video (${words} words, ${model}, ${PACE_LABEL}): parts`,
          of('parts'),
          '',
        ),
        row(
          'jobs',
          `3-hour video: its ${of('calls')} model calls one after another`,
          of('sequential'),
          'ms',
        ),
        row(
          'jobs',
          `3-hour video: the same, ${PARTS_AT_ONCE} at a time, no overhead (floor)`,
          of('floor'),
          'ms',
        ),
        row(
          'jobs',
          `3-hour video: POST -> GET says done (wall), p50 of ${runs.length}`,
          of('wall'),
          'ms',
        ),
        // The final combination cannot run beside anything, so even the floor is ~0.4 of the
        // one-after-another time here; under half of it shows that the parts ran side by side,
        // and leaves the job path ~1.7 s of its own (transcript, writes, polling).
        row(
          'jobs',
          '3-hour video: wall / one after another',
          median(runs.map((run) => run.wall / run.sequential)),
          'x',
          { below: 0.5 },
        ),
        row(
          'jobs',
          '3-hour video: wall - floor',
          median(runs.map((run) => run.wall - run.floor)),
          'ms',
        ),
        row(
          'jobs',
          '3-hour video: ... of it POST -> first model call (queue, transcript, plan)',
          of('beforeFirstCall'),
          'ms',
        ),
        row(
          'jobs',
          '3-hour video: ... of it last model answer -> GET says done',
          of('afterLastAnswer'),
          'ms',
        ),
      );
    }

    // 3. GET /summaries/{id}: a job while its run is under way (its record read too, for the
    // live progress), and a done one. Targets as the other warm rows': 10 ms and one read.
    log('jobs: GET /summaries/{id} of a running and of a done job');
    const pollTarget = Math.round((10 + oneRead) * 100) / 100;
    const running = (await summarize({ video_url: longVideo(3), used_model: SMALL_MODEL.name }))
      .body as JobBody;
    const underWay = await pollJob(
      api,
      token,
      running.id,
      (job) => job.progress.stage === 'summarizing',
    );
    if (ended(underWay.job)) log(`jobs: the job to poll ended ${underWay.job.status} at once`);
    const seen: JobBody['status'][] = [];
    const runningTimes = await timeRuns(
      async () => {
        const answer = await api('GET', `/summaries/${running.id}`, 200, { token });
        seen.push((answer.body as JobBody).status);
      },
      200,
      10,
    );
    // Only the answers about a job still running count (the run takes seconds, these ~2 s).
    const whileRunning = runningTimes.filter((_, index) => seen[index + 10] === 'running');
    if (whileRunning.length < runningTimes.length) {
      log(`jobs: ${runningTimes.length - whileRunning.length} GETs came after the run ended`);
    }
    rows.push(
      row('jobs', 'GET /summaries/{id} running p50', median(whileRunning), 'ms', {
        below: pollTarget,
      }),
      row('jobs', 'GET /summaries/{id} running p99', quantile(whileRunning, 0.99), 'ms'),
    );
    outcomes.set(running.id, (await pollJob(api, token, running.id)).job.status);
    if (doneJob !== '') {
      const doneTimes = await timeRuns(
        () => api('GET', `/summaries/${doneJob}`, 200, { token }),
        300,
        20,
      );
      rows.push(
        row('jobs', 'GET /summaries/{id} done p50', median(doneTimes), 'ms', {
          below: pollTarget,
        }),
        row('jobs', 'GET /summaries/{id} done p99', quantile(doneTimes, 0.99), 'ms'),
      );
    }

    const notDone = [...outcomes.values()].filter((status) => status !== 'done');
    log(
      `jobs: ${outcomes.size} jobs started, ${outcomes.size - notDone.length} done` +
        (notDone.length ? `, not done: ${notDone.join(', ')}` : ''),
    );
    rows.push(
      row('jobs', `jobs not done (of ${outcomes.size} started)`, notDone.length, '', {
        below: 1,
      }),
    );
    return rows;
  } finally {
    db.destroy();
    if (host.exitCode === null && host.signalCode === null) {
      const exited = new Promise((resolve) => host.once('exit', resolve));
      host.kill('SIGTERM');
      await exited;
    }
    await bedrock.close();
    await stub.close();
    await youtube.close();
  }
}
