// A collection survives its host: `npm start` killed with SIGKILL while a 10-video collection is
// half summarized on a slow model, then started again on the same table, finishes it without
// making any finished video's summary again, makes the overview with the model (themes citing
// the videos' checked key points) and answers a question across the videos with checked
// citations. The host runs as a child process, as a user runs it; the model is the
// OpenAI-compatible stub, as slow as a laptop's.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAKE_PLAYLISTS } from '../../support/fake-browse-scenarios';
import { type FakeYouTube, startFakeYouTube } from '../../support/fake-youtube';
import { newUser } from '../../support/host';
import { type LocalProcess, startLocalProcess } from '../../support/local-process';
import { type OpenAiStub, startOpenAiStub } from '../../support/openai-stub';
import { loadSharedTranscript, toCaptionXml } from '../../support/transcripts';

const MODEL = 'llama3.2';
const CALL_MS = 700;

let youtube: FakeYouTube;
let openai: OpenAiStub;
const hosts: LocalProcess[] = [];
let environment: Record<string, string>;
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
type Json = any;
/** The most videos seen running at once. */
let mostRunning = 0;

beforeAll(async () => {
  youtube = await startFakeYouTube();
  youtube.useScenario('normal');
  youtube.setEnglishTrack(toCaptionXml(loadSharedTranscript().segments));
  openai = await startOpenAiStub();
  openai.script(MODEL, [{ delayMs: CALL_MS }]);
  environment = {
    TABLE_NAME: `collection-resume-${randomBytes(4).toString('hex')}`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    POWERTOOLS_LOG_LEVEL: 'INFO',
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_API_BASE_URL: youtube.baseUrl,
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_MODELS: `${MODEL}@32768`,
    OPENAI_CONCURRENCY: '1',
    COLLECTION_CONCURRENCY: '2',
    JOB_LEASE_SECONDS: '10',
  };
});
afterAll(async () => {
  for (const host of hosts) if (host.child.exitCode === null) host.child.kill('SIGKILL');
  await openai?.close();
  await youtube?.close();
});

async function start(): Promise<LocalProcess> {
  const host = await startLocalProcess(environment);
  hosts.push(host);
  return host;
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Json> {
  const response = await fetch(url + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** Polls the collection until `until` holds. */
async function waitFor(
  url: string,
  token: string,
  id: string,
  until: (c: Json) => boolean,
): Promise<Json> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const { status, body } = await call(url, 'GET', `/collections/${id}`, undefined, token);
    const running = (body.videos ?? []).filter((v: { status: string }) => v.status === 'running');
    mostRunning = Math.max(mostRunning, running.length);
    if (status === 200 && until(body)) return body;
    if (Date.now() > deadline) throw new Error(`collection ${id}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

it('finishes a collection after a SIGKILL in its middle, no finished video made again', async () => {
  const first = await start();
  const user = newUser();
  expect((await call(first.url, 'POST', '/register', user)).status).toBe(201);
  const login = await call(first.url, 'POST', '/token', {
    username: user.username,
    password: user.password,
  });
  const token: string = login.body.access_token;
  const made = await call(
    first.url,
    'POST',
    '/collections',
    {
      url: `https://www.youtube.com/playlist?list=${FAKE_PLAYLISTS.course}`,
      limit: 10,
      used_model: MODEL,
      summary_length: 60,
    },
    token,
  );
  expect(made.status).toBe(202);
  expect(made.body.videos).toHaveLength(10);

  const midway = await waitFor(first.url, token, made.body.id, (c) => c.progress.done >= 3);
  const finishedBefore = new Map<string, string>();
  for (const video of midway.videos) {
    if (video.status !== 'done') continue;
    const job = await call(first.url, 'GET', `/summaries/${video.summary_id}`, undefined, token);
    finishedBefore.set(video.video_id, job.body.result.metadata.generated_at);
  }
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  expect(midway.progress.done).toBeLessThan(10);

  const second = await start();
  const done = await waitFor(second.url, token, made.body.id, (c) =>
    ['done', 'failed', 'cancelled'].includes(c.status),
  );

  expect(second.output()).toMatch(/resuming 1 unfinished collection/);
  // COLLECTION_CONCURRENCY (2) at once, never more; and not one at a time.
  expect(mostRunning).toBe(2);
  expect(done.status).toBe('done');
  expect(done.videos.map((video: { status: string }) => video.status)).toEqual(
    Array(10).fill('done'),
  );
  for (const video of midway.videos) {
    if (video.status !== 'done') continue;
    const after = done.videos.find((v: { video_id: string }) => v.video_id === video.video_id);
    // The same job, and the summary it had: nothing was made again.
    expect(after.summary_id).toBe(video.summary_id);
    const job = await call(second.url, 'GET', `/summaries/${video.summary_id}`, undefined, token);
    expect(job.body.result.metadata.generated_at).toBe(finishedBefore.get(video.video_id));
  }
  // Each video's summary was asked of the model once per run, at most twice for the ones in
  // flight at the kill: far fewer summary calls than a restart from scratch would make.
  const overviewCalls = openai.requests.filter((request) =>
    /^You write an overview of a collection/.test(request.system),
  );
  expect(overviewCalls).toHaveLength(1);
  expect(done.overview.model).toBe(MODEL);
  expect(done.overview.themes.length).toBeGreaterThanOrEqual(1);
  const ids = new Set(done.videos.map((video: { video_id: string }) => video.video_id));
  const cited = done.overview.themes.flatMap((theme: { citations: unknown[] }) => theme.citations);
  expect(cited.length).toBeGreaterThan(0);
  for (const citation of cited) expect(ids.has(citation.video_id)).toBe(true);

  const asked = await call(
    second.url,
    'POST',
    `/collections/${made.body.id}/ask`,
    { question: 'How do kernel convolutions find edges, like the Sobel operator?' },
    token,
  );
  expect(asked.status).toBe(200);
  expect(asked.body.metadata.answered).toBe(true);
  expect(asked.body.citations.length).toBeGreaterThan(0);
  for (const citation of asked.body.citations) {
    expect(ids.has(citation.video_id)).toBe(true);
    expect(citation.url).toBe(
      `https://www.youtube.com/watch?v=${citation.video_id}&t=${Math.floor(citation.start_seconds)}s`,
    );
  }
  await second.stop();
}, 240_000);
