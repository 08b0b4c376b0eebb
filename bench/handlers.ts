// Warm in-process latency of the handlers with realistic API Gateway events, and throughput of
// the local server under autocannon next to a bare node:http server measured in the same run.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import bcrypt from 'bcryptjs';
import { freePort, type LocalDynamo } from '../infra/local/dynamodb';
import { apiGatewayEvent, lambdaContext } from '../infra/local/event';
import { startLocalHost } from '../infra/local/host';
import { functionLoader } from '../infra/local/server';
import { createDocumentClient } from '../lib/aws/dynamodb';
import { loadConfig } from '../lib/config';
import type { LambdaHandler } from '../lib/http/stack/route-stack';
import type { Reply } from '../lib/reply';
import type { FunctionName } from '../lib/routes/route';
import { type FakeYouTube, startFakeYouTube } from '../test/support/fake-youtube';
import { loadSharedTranscript, toCaptionXml } from '../test/support/transcripts';
import { npmStartArgs } from './local-start';
import { median, quantile, type Row, row, timeRuns } from './measure';

const VIDEO = 'GJLlxj_dtq8';
const user = {
  username: 'bench_user',
  email: 'bench@example.com',
  password: 'violet-kettle-harbour-89',
};

/** Calls `handler` in this process as API Gateway and Lambda would, with a JSON body. */
export function invoke(
  handler: LambdaHandler,
  name: FunctionName,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  extraHeaders: Record<string, string> = {},
) {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = {
    host: 'bench.local',
    'user-agent': 'bench',
    ...(body === undefined
      ? {}
      : { 'content-type': 'application/json', 'content-length': String(payload.length) }),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extraHeaders,
  };
  const requestId = randomUUID();
  const event = apiGatewayEvent(
    { method, url: path, headers, httpVersion: '1.1' },
    payload,
    `${method} ${path}`,
    undefined,
    requestId,
  );
  return handler(event, lambdaContext(name, requestId));
}

export async function expectStatus(reply: Promise<Reply>, status: number): Promise<Reply> {
  const result = await reply;
  if (result.statusCode !== status)
    throw new Error(`expected ${status}, got ${result.statusCode}: ${result.body}`);
  return result;
}

const stats = (group: string, name: string, times: number[], p50Target?: number): Row[] => [
  row(
    group,
    `${name} p50`,
    median(times),
    'ms',
    p50Target === undefined ? undefined : { below: p50Target },
  ),
  row(group, `${name} p99`, quantile(times, 0.99), 'ms'),
];

/** Warm latency: the handlers called in this process, as Lambda calls them. */
async function warmLatency(
  dynamoEndpoint: string,
  youtube: FakeYouTube,
  log: (line: string) => void,
): Promise<Row[]> {
  const config = loadConfig({
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    TABLE_NAME: 'bench-warm',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    YOUTUBE_BASE_URL: youtube.baseUrl,
    SUMMARY_DAILY_QUOTA: '0',
    // The bench logs in hundreds of times from one address: no per-address bcrypt budget
    // (issue 19's), which would answer 429 after the first 20 in a minute.
    BCRYPT_MAX_PER_IP: '0',
    LOCAL_DATA_DIR: 'memory',
    PORT: '0',
  });
  const host = await startLocalHost(config, { log: () => undefined });
  await host.database; // the table exists
  // The handlers as the local host builds them: from the Config, one each, /summarize with the
  // host's in-process job queue (without it, it would want JOB_QUEUE_URL, the deployed SQS).
  const load = functionLoader(host.config, { queue: host.queue });
  const db = createDocumentClient(host.config);
  const health = await load('health');
  const register = await load('register');
  const token = await load('token');
  const summarize = await load('summarize');
  const rows: Row[] = [];
  try {
    log('warm latency: /health');
    rows.push(
      ...stats(
        'warm',
        '/health',
        await timeRuns(
          () => expectStatus(invoke(health, 'health', 'GET', '/health'), 200),
          2_000,
          50,
        ),
        1,
      ),
    );

    await expectStatus(invoke(register, 'register', 'POST', '/register', user), 201);
    const cost = config.BCRYPT_COST;
    log(`warm latency: /token at bcrypt cost ${cost}, and bcrypt alone`);
    // Time bcrypt inside each login: wrap the very compare the handler calls (same module
    // instance), so "everything else" is measured per request, not as a difference of medians.
    let bcryptMs = 0;
    // And the time with at least one DynamoDB call in flight (parallel reads count once).
    let dynamoMs = 0;
    let inFlight = 0;
    let since = 0n;
    // Every document client's calls (each function builds its own from the Config).
    const send = DynamoDBDocumentClient.prototype.send;
    DynamoDBDocumentClient.prototype.send = async function timed(
      this: DynamoDBDocumentClient,
      ...args: Parameters<typeof send>
    ) {
      if (inFlight++ === 0) since = process.hrtime.bigint();
      try {
        return await send.apply(this, args);
      } finally {
        if (--inFlight === 0) dynamoMs += Number(process.hrtime.bigint() - since) / 1e6;
      }
    } as typeof send;
    const compare = bcrypt.compare;
    bcrypt.compare = (async (password: string, hash: string) => {
      const start = process.hrtime.bigint();
      try {
        return await compare(password, hash);
      } finally {
        bcryptMs += Number(process.hrtime.bigint() - start) / 1e6;
      }
    }) as unknown as typeof compare;
    let accessToken = '';
    const tokenTimes: number[] = [];
    const restTimes: number[] = [];
    const dynamoTimes: number[] = [];
    const bcryptTimes: number[] = [];
    for (let i = 0; i < 22; i++) {
      bcryptMs = 0;
      dynamoMs = 0;
      const start = process.hrtime.bigint();
      const reply = await expectStatus(
        invoke(token, 'token', 'POST', '/token', {
          username: user.username,
          password: user.password,
        }),
        200,
      );
      const total = Number(process.hrtime.bigint() - start) / 1e6;
      accessToken = JSON.parse(reply.body ?? '{}').access_token;
      if (i < 2) continue; // warm-up
      tokenTimes.push(total);
      bcryptTimes.push(bcryptMs);
      restTimes.push(total - bcryptMs);
      dynamoTimes.push(dynamoMs);
    }
    bcrypt.compare = compare;
    DynamoDBDocumentClient.prototype.send = send;
    rows.push(...stats('warm', `/token (bcrypt cost ${cost})`, tokenTimes));
    rows.push(row('warm', '/token bcrypt part p50', median(bcryptTimes), 'ms'));
    rows.push(...stats('warm', '/token without bcrypt', restTimes, 5));
    rows.push(row('warm', '/token DynamoDB Local part p50', median(dynamoTimes), 'ms'));
    rows.push(
      row(
        'warm',
        '/token without bcrypt or DynamoDB p50',
        median(restTimes.map((t, i) => t - (dynamoTimes[i] ?? 0))),
        'ms',
      ),
    );

    log('warm latency: /summarize from the cache, and one DynamoDB read');
    const cachedBody = { video_url: VIDEO, summary_length: 200 };
    await expectStatus(
      invoke(summarize, 'summarize', 'POST', '/summarize', cachedBody, accessToken),
      200,
    );
    const cachedTimes = await timeRuns(
      () =>
        expectStatus(
          invoke(summarize, 'summarize', 'POST', '/summarize', cachedBody, accessToken),
          200,
        ),
      300,
      20,
    );
    // A read like the ones on the path: an existing item, strongly consistent.
    const readTimes = await timeRuns(
      () =>
        db.send(
          new GetCommand({
            TableName: config.TABLE_NAME,
            Key: { pk: `USERNAME#${user.username}` },
            ConsistentRead: true,
          }),
        ),
      300,
      20,
    );
    const oneRead = median(readTimes);
    rows.push(row('warm', 'one DynamoDB Local read p50', oneRead, 'ms'));
    rows.push(...stats('warm', '/summarize cached', cachedTimes, 10 + oneRead));

    log('warm latency: /summarize with extractive on the shared real transcript (new summaries)');
    let length = 100;
    const freshTimes = await timeRuns(
      () =>
        expectStatus(
          invoke(
            summarize,
            'summarize',
            'POST',
            '/summarize',
            { video_url: VIDEO, summary_length: length++ },
            accessToken,
          ),
          200,
        ),
      30,
      3,
    );
    rows.push(
      ...stats('warm', '/summarize extractive, new summary, transcript cached', freshTimes),
    );
    return rows;
  } finally {
    db.destroy();
    await host.close();
  }
}

/** Starts a Node child process and resolves once its output matches `ready`. */
export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not start: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (ready.test(output)) {
        clearTimeout(timer);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`child exited (${code}): ${output}`)));
  });
}

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Throughput on loopback: the local host in its own process against a bare node:http server. */
async function throughput(
  dynamoEndpoint: string,
  youtube: FakeYouTube,
  log: (line: string) => void,
): Promise<Row[]> {
  const [hostPort, barePort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    TABLE_NAME: 'bench-http',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    YOUTUBE_BASE_URL: youtube.baseUrl,
    SUMMARY_DAILY_QUOTA: '0',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    PORT: String(hostPort),
  };
  // What `npm start` runs, without npm in between.
  const host = await startChild(npmStartArgs(), env, /listening on /);
  const bare = await startChild(
    [
      '-e',
      `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"status":"healthy"}'); }).listen(${barePort}, '127.0.0.1', () => console.log('ready'))`,
    ],
    process.env,
    /ready/,
  );
  const base = `http://127.0.0.1:${hostPort}`;
  try {
    const post = (path: string, body: unknown, token?: string) =>
      fetch(base + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    await post('/register', user);
    const { access_token: token } = (await (
      await post('/token', { username: user.username, password: user.password })
    ).json()) as { access_token: string };
    const summaryBody = JSON.stringify({ video_url: VIDEO, summary_length: 150 });
    if ((await post('/summarize', JSON.parse(summaryBody), token)).status !== 200)
      throw new Error('could not prime the cache');

    const common = { connections: 50, duration: 10 };
    log('throughput: bare node:http (10 s)');
    const bareResult = await load({ ...common, url: `http://127.0.0.1:${barePort}/health` });
    log('throughput: GET /health (10 s)');
    const healthResult = await load({ ...common, url: `${base}/health` });
    log('throughput: cached POST /summarize (10 s)');
    const summaryResult = await load({
      ...common,
      url: `${base}/summarize`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: summaryBody,
    });
    const failures = (r: autocannon.Result) => r.errors + r.timeouts + r.non2xx;
    return [
      row('throughput', 'bare node:http', bareResult.requests.average, 'req/s'),
      row('throughput', 'GET /health', healthResult.requests.average, 'req/s'),
      row(
        'throughput',
        'GET /health / bare',
        healthResult.requests.average / bareResult.requests.average,
        'x',
        { atLeast: 0.45 },
      ),
      row('throughput', 'GET /health p99 latency', healthResult.latency.p99, 'ms'),
      row('throughput', 'cached POST /summarize', summaryResult.requests.average, 'req/s'),
      row('throughput', 'cached POST /summarize p99 latency', summaryResult.latency.p99, 'ms'),
      row(
        'throughput',
        'errors and non-2xx',
        failures(healthResult) + failures(summaryResult),
        '',
        { below: 1 },
      ),
    ];
  } finally {
    host.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
}

export async function handlerBenchmarks(
  dynamo: LocalDynamo,
  log: (line: string) => void,
): Promise<Row[]> {
  const youtube = await startFakeYouTube();
  youtube.setEnglishTrack(toCaptionXml(loadSharedTranscript().segments));
  try {
    return [
      ...(await warmLatency(dynamo.endpoint, youtube, log)),
      ...(await throughput(dynamo.endpoint, youtube, log)),
    ];
  } finally {
    await youtube.close();
  }
}
