// A job survives its host: `npm start` killed with SIGKILL in the middle of a long summary (no
// chance to say goodbye), then started again, finishes that job, and asks the model again for at
// most the part that was in flight. The host runs as a child process, as a user runs it, against
// the run's DynamoDB Local; the model is an OpenAI-compatible stub as slow as a laptop's.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { readinessBudget } from '../../support/budget';
import { FAKE_VIDEO_IDS, type FakeYouTube, startFakeYouTube } from '../../support/fake-youtube';
import { newUser } from '../../support/host';
import { type OpenAiStub, startOpenAiStub } from '../../support/openai-stub';
import { buildLongTranscript, toCaptionXml } from '../../support/transcripts';

const READY_MS = readinessBudget();
const MODEL = 'llama3.2';
const CALL_MS = 800;

let youtube: FakeYouTube;
let openai: OpenAiStub;
const hosts: ChildProcess[] = [];

/** The environment of both runs: one table, one secret, the same stubs. */
let environment: NodeJS.ProcessEnv;

beforeAll(async () => {
  youtube = await startFakeYouTube();
  youtube.setEnglishTrack(toCaptionXml(buildLongTranscript(10_000).segments));
  openai = await startOpenAiStub();
  openai.script(MODEL, [{ delayMs: CALL_MS }]);
  environment = {
    ...process.env,
    AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    TABLE_NAME: `resume-${randomUUID()}`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    BCRYPT_COST: '10',
    PORT: '0',
    HOST: '127.0.0.1',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_API_BASE_URL: youtube.baseUrl,
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_MODELS: `${MODEL}@8192`,
    OPENAI_CONCURRENCY: '1',
    // The restarted host takes the crashed worker's lease at once (it knows no other process
    // can hold it), so the lease need not be short; a 2-second one made the living worker's
    // renewals (every third of it) race a loaded machine's event loop.
    JOB_LEASE_SECONDS: '10',
  };
});
afterAll(async () => {
  for (const host of hosts) if (host.exitCode === null) host.kill('SIGKILL');
  await openai?.close();
  await youtube?.close();
});

/** Starts `npm start`'s program and resolves with its URL and its output so far (live). */
async function startHost(): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(
    process.execPath,
    ['--env-file=infra/local/local.env', 'infra/local/start.mjs'],
    {
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  hosts.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + READY_MS;
  for (;;) {
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
    if (url) return { url, child, output: () => output };
    if (Date.now() > deadline || child.exitCode !== null) {
      throw new Error(`the host did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
const json = async (response: Response): Promise<{ status: number; body: any }> => ({
  status: response.status,
  body: await response.json(),
});

async function job(url: string, token: string, id: string) {
  return json(
    await fetch(`${url}/summaries/${id}`, { headers: { authorization: `Bearer ${token}` } }),
  );
}

/** Polls a job until `until` holds. */
async function waitForJob(
  url: string,
  token: string,
  id: string,
  // biome-ignore lint/suspicious/noExplicitAny: a job body as the test reads it
  until: (body: any) => boolean,
  timeoutMs: number,
  // biome-ignore lint/suspicious/noExplicitAny: a job body as the test reads it
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await job(url, token, id);
    if (answer.status === 200 && until(answer.body)) return answer.body;
    if (Date.now() > deadline) throw new Error(`job ${id}: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How often the model was asked for each part of the transcript (the map calls), by part. */
function partCalls(): Map<number, number> {
  const counts = new Map<number, number>();
  for (const request of openai.requests) {
    const part = /^This is part (\d+) of \d+ of the transcript/.exec(request.userText)?.[1];
    if (part !== undefined) counts.set(Number(part), (counts.get(Number(part)) ?? 0) + 1);
  }
  return counts;
}

it(
  'finishes a job after a SIGKILL in its middle, asking the model again for at most one part',
  async () => {
    const first = await startHost();
    const user = newUser();
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(first.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await post('/register', user)).status).toBe(201);
    const login = await json(
      await post('/token', { username: user.username, password: user.password }),
    );
    const token = login.body.access_token as string;
    const submitted = await json(
      await post(
        '/summarize',
        { video_url: FAKE_VIDEO_IDS.normal, used_model: MODEL, summary_length: 250 },
        { authorization: `Bearer ${token}`, prefer: 'respond-async' },
      ),
    );
    expect(submitted.status).toBe(202);
    const id = submitted.body.id as string;

    const before = await waitForJob(
      first.url,
      token,
      id,
      (body) => body.progress.parts_done >= 2,
      30_000,
    );
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const partsBeforeKill = partCalls().size;

    const second = await startHost();
    const done = await waitForJob(
      second.url,
      token,
      id,
      (body) => body.status !== 'running' && body.status !== 'queued',
      60_000,
    );

    expect(before.status).toBe('running');
    expect(done.status).toBe('done');
    expect(done.result.metadata.chunks).toBe(done.progress.parts_total);
    expect(second.output()).toMatch(/resuming 1 unfinished summary job/);
    const calls = partCalls();
    // Every part was summarised, and the kill cost at most the one call that was under way.
    expect(calls.size).toBe(done.progress.parts_total);
    expect([...calls.values()].filter((count) => count > 1).length).toBeLessThanOrEqual(1);
    expect([...calls.values()].reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(
      done.progress.parts_total + 1,
    );
    // The first host had got somewhere: the second did not start over.
    expect(partsBeforeKill).toBeGreaterThanOrEqual(2);
  },
  READY_MS * 2 + 90_000,
);
