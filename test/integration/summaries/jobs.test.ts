// Summaries as jobs, over HTTP against the real local host (its in-process queue and worker),
// DynamoDB Local, the fake YouTube, and model stubs as slow as the models people run: a long
// video becomes a job whose progress rises part by part, that can be cancelled, that only its
// owner sees, and that ends with exactly what a direct call would have answered.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { comparableProblem } from '../../support/host';
import {
  jobIdOf,
  OPENAI_MODEL_NAME,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
  TINY_MODEL,
} from '../../support/summarize-env';
import { buildLongTranscript, toCaptionXml } from '../../support/transcripts';

/** A laptop's CPU: a few seconds per call of a small model (we keep it just above one). */
const LAPTOP_CALL_MS = 1_200;
/** A call so slow that five of them outlast the 15 s SUMMARIZE_WAIT_MS of summarize-env.ts. */
const SLOWER_THAN_THE_WAIT_MS = 4_000;
/** An hour of talk at a brisk lecturer's pace. */
const HOUR_OF_TALK = buildLongTranscript(10_000);
/** Models of 4,096 tokens (Ollama's default window), local and on Bedrock. */
const SMALL_LOCAL_MODEL = 'laptop-model';
const SMALL_BEDROCK_MODEL = {
  name: 'small-window',
  modelId: 'us.example.small-window-v1:0',
  contextTokens: 4_096,
  maxOutputTokens: 1_024,
};
/** Nearly four hours of lecture: 35 parts with a model of 4,096 tokens. */
const LONG_LECTURE = buildLongTranscript(38_000);

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({
    // Ollama's window with a longer context: an hour of talk is 4 parts and a combination. And
    // its default window, and a Bedrock model as small, with which 3 hours make 35 parts.
    OPENAI_MODELS: `${OPENAI_MODEL_NAME}@8192,${SMALL_LOCAL_MODEL}@4096`,
    MODEL_CATALOG_JSON: JSON.stringify([TINY_MODEL, SMALL_BEDROCK_MODEL]),
    // A laptop runs one call at a time.
    OPENAI_CONCURRENCY: '1',
    BEDROCK_CONCURRENCY: '3',
  });
});
afterAll(() => env?.close());
beforeEach(() => {
  env.youtube.reset();
  env.youtube.setEnglishTrack(toCaptionXml(HOUR_OF_TALK.segments));
  env.bedrock.reset();
  env.openai.reset();
});

const VIDEO = `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`;
/** The video's title, as the fake YouTube's watch page gives it. */
const TITLE = 'Surface Go Review - It’s Awesome';
let lengthSeed = 300;
/** A summary_length no other test used, so no record answers it. */
const freshLength = () => lengthSeed++;

const summarize = (
  body: Record<string, unknown>,
  options: { token?: string; prefer?: string } = {},
) =>
  env.host.request('POST', '/summarize', {
    json: body,
    token: options.token ?? env.token,
    ...(options.prefer ? { headers: { prefer: options.prefer } } : {}),
  });

/** The values `parts_done` took, in the order seen, without repeats. */
function partsSeen(jobs: unknown[]): number[] {
  const values: number[] = [];
  for (const job of jobs as { progress: { parts_done: number } }[]) {
    if (values.at(-1) !== job.progress.parts_done) values.push(job.progress.parts_done);
  }
  return values;
}

/** The most calls a stub had under way at once. */
function mostAtOnce(calls: { receivedAt: number; answeredAt?: number }[]): number {
  let most = 0;
  for (const call of calls) {
    const overlapping = calls.filter(
      (other) =>
        other.receivedAt <= call.receivedAt && (other.answeredAt ?? Infinity) > call.receivedAt,
    );
    most = Math.max(most, overlapping.length);
  }
  return most;
}

describe('a long video with a slow local model', () => {
  it('answers Prefer: respond-async with 202 and the job at once, without waiting for the model', async () => {
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: LAPTOP_CALL_MS }]);

    const response = await summarize(
      { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: freshLength() },
      { prefer: 'respond-async' },
    );
    const answeredBefore202 = env.openai.requests.filter((call) => call.answeredAt !== undefined);

    expect(response.status).toBe(202);
    // It did not wait for a single model call (how fast a 202 comes is the bench's "time to 202",
    // not a timed test's).
    expect(answeredBefore202).toEqual([]);
    expect(response.headers.get('preference-applied')).toBe('respond-async');
    expect(response.headers.get('location')).toBe(`/summaries/${response.body.id}`);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.body).toMatchObject({
      status: expect.stringMatching(/^(queued|running)$/),
      // The video at once; its title once the run has fetched the video (it may have already).
      video: { video_id: FAKE_VIDEO_IDS.normal, title: expect.toBeOneOf([null, TITLE]) },
      result: null,
      error: null,
      request: {
        video_url: VIDEO,
        used_model: OPENAI_MODEL_NAME,
        include_key_points: true,
      },
    });
    await pollJob(env.host, env.token, response.body.id);
  });

  it('finishes as a job whose parts_done rises part by part to parts_total', async () => {
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: LAPTOP_CALL_MS }]);
    const length = freshLength();

    const response = await summarize(
      { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: length },
      { prefer: 'wait=1' },
    );
    const { last, seen } = await pollJob(env.host, env.token, jobIdOf(response), {
      everyMs: 150,
    });

    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('wait=1');
    const total = last.body.progress.parts_total;
    expect(total).toBe(4);
    expect(partsSeen(seen)).toEqual([0, 1, 2, 3, 4]);
    const stages = (seen as { progress: { stage: string } }[]).map((job) => job.progress.stage);
    expect(stages).toContain('summarizing');
    expect(stages).toContain('combining');
    expect(stages.at(-1)).toBe('done');
    expect(last.body.status).toBe('done');
    // The video's title as soon as the run has fetched the video: before its summary is made.
    const making = (seen as { video: unknown; progress: { stage: string } }[]).filter((job) =>
      ['summarizing', 'combining'].includes(job.progress.stage),
    );
    expect(making.length).toBeGreaterThan(0);
    for (const job of making) {
      expect(job.video).toEqual({ video_id: FAKE_VIDEO_IDS.normal, title: TITLE });
    }
    // The result is exactly what POST /summarize answers with 200: asked again, it is.
    const direct = await summarize({
      video_url: VIDEO,
      used_model: OPENAI_MODEL_NAME,
      summary_length: length,
    });
    expect(direct.status).toBe(200);
    expect(direct.body.summary).toBe(last.body.result.summary);
    expect(direct.body.metadata.chunks).toBe(total);
    expect({ ...last.body.result.metadata, cached: true, elapsed_ms: 0 }).toEqual({
      ...direct.body.metadata,
      elapsed_ms: 0,
    });
    // Four parts and one combination, one call each.
    expect(env.openai.requests).toHaveLength(total + 1);
  });

  it('runs a Bedrock model’s parts side by side, up to BEDROCK_CONCURRENCY', async () => {
    env.bedrock.script('*', [{ delayMs: 400 }]);

    const response = await summarize(
      { video_url: VIDEO, used_model: TINY_MODEL.name, summary_length: freshLength() },
      { prefer: 'respond-async' },
    );
    const { last, seen } = await pollJob(env.host, env.token, jobIdOf(response), {
      everyMs: 50,
    });

    expect(last.body.status).toBe('done');
    expect(last.body.progress.parts_total).toBeGreaterThan(3);
    expect(partsSeen(seen).at(-1)).toBe(last.body.progress.parts_total);
    expect(mostAtOnce(env.bedrock.requests)).toBe(3);
  });

  it.each([
    ['a local model', SMALL_LOCAL_MODEL],
    ['a Bedrock model', SMALL_BEDROCK_MODEL.name],
  ])(
    'runs the 35 parts of a long lecture on %s without a listener leak warning',
    async (_name, model) => {
      env.youtube.setEnglishTrack(toCaptionXml(LONG_LECTURE.segments));
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      try {
        const response = await summarize(
          { video_url: VIDEO, used_model: model, summary_length: freshLength() },
          { prefer: 'respond-async' },
        );
        const { last } = await pollJob(env.host, env.token, jobIdOf(response), {
          timeoutMs: 60_000,
        });

        expect(last.body.status).toBe('done');
        expect(last.body.progress.parts_total).toBeGreaterThanOrEqual(35);
        // Node warns once per emitter, past ten listeners: one shared by every call of a job.
        expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
      } finally {
        process.off('warning', onWarning);
      }
    },
  );

  it('never answers 504 to a summary longer than the wait: 202 with the job', async () => {
    // No Prefer: the server's wait (SUMMARIZE_WAIT_MS, 15 s in these tests) is shorter than the
    // five calls this summary takes, on any machine (a stub's delay is a lower bound).
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: SLOWER_THAN_THE_WAIT_MS }]);

    const response = await summarize({
      video_url: VIDEO,
      used_model: OPENAI_MODEL_NAME,
      summary_length: freshLength(),
    });

    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBeNull();
    expect(['summarizing', 'combining']).toContain(response.body.progress.stage);
    expect(response.body.progress.parts_done).toBeGreaterThan(0);
    const { last } = await pollJob(env.host, env.token, response.body.id, { timeoutMs: 90_000 });
    expect(last.body.status).toBe('done');
  }, 150_000);
});

describe('cancelling', () => {
  it('makes no model call after DELETE, and shows the job cancelled', async () => {
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: LAPTOP_CALL_MS }]);
    const response = await summarize(
      { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: freshLength() },
      { prefer: 'respond-async' },
    );
    const id = jobIdOf(response);
    await pollJob(env.host, env.token, id, { until: (job) => job.progress.parts_done >= 1 });

    const cancelled = await env.host.request('DELETE', `/summaries/${id}`, { token: env.token });
    const callsAtCancel = env.openai.requests.length;
    // Longer than two calls take: a worker that went on would have started another.
    await new Promise((resolve) => setTimeout(resolve, 3 * LAPTOP_CALL_MS));
    const afterwards = await env.host.request('GET', `/summaries/${id}`, { token: env.token });

    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(env.openai.requests).toHaveLength(callsAtCancel);
    expect(afterwards.body.status).toBe('cancelled');
    // The title its run had read stays with the cancelled job.
    expect(cancelled.body.video).toEqual({ video_id: FAKE_VIDEO_IDS.normal, title: TITLE });
    expect(afterwards.body.video).toEqual(cancelled.body.video);
    expect(afterwards.body.result).toBeNull();
    expect(afterwards.headers.get('retry-after')).toBeNull();
  });

  it('leaves a summary another user still waits for to be made for them', async () => {
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: 600 }]);
    const other = await env.host.registerAndLogin();
    const body = { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: freshLength() };
    const mine = await summarize(body, { prefer: 'respond-async' });
    const theirs = await summarize(body, { prefer: 'respond-async', token: other.token });

    const cancelled = await env.host.request('DELETE', `/summaries/${jobIdOf(mine)}`, {
      token: env.token,
    });
    const { last } = await pollJob(env.host, other.token, jobIdOf(theirs));

    expect(cancelled.body.status).toBe('cancelled');
    expect(last.body.status).toBe('done');
    expect(last.body.result.metadata.cached).toBe(true);
    // One summary made, for both: four parts and a combination.
    expect(env.openai.requests).toHaveLength(5);
  });

  it('removes a finished job from the history (204), and then it is gone', async () => {
    const response = await summarize({ video_url: VIDEO, summary_length: freshLength() });
    const id = jobIdOf(response);
    const before = await env.host.request('GET', `/summaries/${id}`, { token: env.token });

    const removed = await env.host.request('DELETE', `/summaries/${id}`, { token: env.token });
    const after = await env.host.request('GET', `/summaries/${id}`, { token: env.token });
    const history = await env.host.request('GET', '/summaries?limit=100', { token: env.token });

    expect(response.status).toBe(200);
    // The offline model makes its summary in one part, done at once.
    expect(before.body.progress).toEqual({ stage: 'done', parts_done: 1, parts_total: 1 });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(after.status).toBe(404);
    expect(history.body.items.map((job: { id: string }) => job.id)).not.toContain(id);
  });
});

describe('reading a job', () => {
  it('shows the read that settles a finished job the updated_at every later read shows', async () => {
    const response = await summarize({ video_url: VIDEO, summary_length: freshLength() });
    const id = jobIdOf(response);
    // As if the worker had not settled it yet: pending since a minute ago, its summary made.
    await env.host.db.send(
      new UpdateCommand({
        TableName: env.host.config.TABLE_NAME,
        Key: { pk: `JOB#${id}` },
        UpdateExpression: 'SET #status = :pending, updatedAt = :before',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending', ':before': Date.now() - 60_000 },
      }),
    );

    const settling = await env.host.request('GET', `/summaries/${id}`, { token: env.token });
    const later = await env.host.request('GET', `/summaries/${id}`, { token: env.token });

    expect(settling.body.status).toBe('done');
    expect(settling.body).toEqual(later.body);
  });
});

describe('ownership', () => {
  it('answers another user’s job with the same 404 as an unknown one, for GET and DELETE', async () => {
    const response = await summarize({ video_url: VIDEO, summary_length: freshLength() });
    const id = jobIdOf(response);
    const stranger = await env.host.registerAndLogin();
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';

    const read = await env.host.request('GET', `/summaries/${id}`, { token: stranger.token });
    const readUnknown = await env.host.request('GET', `/summaries/${unknown}`, {
      token: stranger.token,
    });
    const deleted = await env.host.request('DELETE', `/summaries/${id}`, {
      token: stranger.token,
    });
    const list = await env.host.request('GET', '/summaries', { token: stranger.token });
    const mine = await env.host.request('GET', `/summaries/${id}`, { token: env.token });

    const malformed = await env.host.request('GET', '/summaries/..%2Fusers', {
      token: stranger.token,
    });

    expect(read.status).toBe(404);
    expect(comparableProblem(read)).toEqual(comparableProblem(readUnknown));
    expect(comparableProblem(malformed)).toEqual(comparableProblem(readUnknown));
    expect(deleted.status).toBe(404);
    expect(list.body.items).toEqual([]);
    // Still there for its owner.
    expect(mine.status).toBe(200);
    expect(mine.body.status).toBe('done');
  });
});

describe('failures', () => {
  it('ends a job failed with the problem a direct call answers when the model refuses its key', async () => {
    env.openai.requireKey('sk-the-operator-never-set');
    const body = { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: freshLength() };

    const queued = await summarize(body, { prefer: 'respond-async' });
    const { last } = await pollJob(env.host, env.token, jobIdOf(queued));
    const direct = await summarize({ ...body, summary_length: freshLength() });

    expect(queued.status).toBe(202);
    expect(last.body.status).toBe('failed');
    expect(last.body.result).toBeNull();
    expect(direct.status).toBe(502);
    expect(last.body.error).toMatchObject({
      type: direct.body.type,
      status: direct.body.status,
      detail: direct.body.detail,
      title: direct.body.title,
    });
    expect(last.body.error.type).toBe('urn:tubesum:problem:model-access-denied');
    // It failed after fetching the video: the job keeps its title.
    expect(last.body.video).toEqual({ video_id: FAKE_VIDEO_IDS.normal, title: TITLE });
    expect(last.body.error.request_id).toBe(queued.headers.get('x-request-id'));
  });

  it('answers a verdict on the video found within the wait directly (404), not as a job', async () => {
    const response = await summarize({ video_url: FAKE_VIDEO_IDS.unavailable });

    expect(response.status).toBe(404);
    expect(response.body.type).toBe('urn:tubesum:problem:video-unavailable');
  });
});

describe('the history', () => {
  it('lists the caller’s jobs newest first, a page at a time', async () => {
    const user = await env.host.registerAndLogin();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await summarize(
        { video_url: VIDEO, summary_length: freshLength() },
        { token: user.token },
      );
      ids.push(jobIdOf(response));
    }

    const first = await env.host.request('GET', '/summaries?limit=2', { token: user.token });
    const second = await env.host.request(
      'GET',
      `/summaries?limit=2&cursor=${first.body.next_cursor}`,
      { token: user.token },
    );
    const third = await env.host.request(
      'GET',
      `/summaries?limit=2&cursor=${second.body.next_cursor}`,
      { token: user.token },
    );
    const everything = await env.host.request('GET', '/summaries', { token: user.token });

    const newestFirst = [...ids].reverse();
    expect(first.body.items.map((job: { id: string }) => job.id)).toEqual(newestFirst.slice(0, 2));
    expect(second.body.items.map((job: { id: string }) => job.id)).toEqual(newestFirst.slice(2, 4));
    expect(third.body.items.map((job: { id: string }) => job.id)).toEqual(newestFirst.slice(4));
    expect(everything.body.items).toHaveLength(5);
    expect(everything.body.items[0].result.summary).toEqual(expect.any(String));
    expect(everything.body.next_cursor).toBeNull();
  });

  it('pages a user through their own jobs only, whoever’s cursor they send', async () => {
    const owner = await env.host.registerAndLogin();
    const other = await env.host.registerAndLogin();
    for (let i = 0; i < 2; i++) {
      await summarize({ video_url: VIDEO, summary_length: freshLength() }, { token: owner.token });
    }
    const theirs = await summarize(
      { video_url: VIDEO, summary_length: freshLength() },
      { token: other.token },
    );
    const ownerPage = await env.host.request('GET', '/summaries?limit=1', { token: owner.token });

    const borrowed = await env.host.request(
      'GET',
      `/summaries?limit=10&cursor=${ownerPage.body.next_cursor}`,
      { token: other.token },
    );

    expect(ownerPage.body.next_cursor).toEqual(expect.any(String));
    expect(borrowed.status).toBe(200);
    // Their own job (made before the owner's cursor position) or nothing: never the owner's.
    for (const job of borrowed.body.items as { id: string }[]) {
      expect(job.id).toBe(jobIdOf(theirs));
    }
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    [`cursor=${Buffer.from('2026-01-01T00:00:00.000Z#x').toString('base64url')}`, 'cursor'],
  ])('refuses %s with 422 naming the parameter', async (query, field) => {
    const response = await env.host.request('GET', `/summaries?${query}`, { token: env.token });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].field).toBe(field);
  });
});
