// POST /ask against the daily quota it shares with POST /summarize, and within its deadline:
// a new answer takes a unit, a cached one none; a failure of ours or of the model gives it back,
// a lookup YouTube answered keeps it spent; a model that hangs gets a 504 before the deadline.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import {
  OPENAI_MODEL_NAME,
  type SummarizeEnv,
  startSummarizeEnv,
} from '../../support/summarize-env';

const ASK_DEADLINE_MS = 6_000;
let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({
    SUMMARY_DAILY_QUOTA: '2',
    // Short enough for the test of a model that hangs, long enough for every answer that comes
    // (a loaded machine takes seconds where an idle one takes milliseconds).
    ASK_DEADLINE_MS: String(ASK_DEADLINE_MS),
    OPENAI_MAX_ATTEMPTS: '1',
  });
});
afterAll(() => env?.close());
beforeEach(() => env.openai.reset());

const VIDEO = FAKE_VIDEO_IDS.normal;
const ask = (body: Record<string, unknown>, token: string) =>
  env.host.request('POST', '/ask', { json: body, token });

it('takes a unit per new answer, none for a cached one, from the quota summaries use', async () => {
  const { token } = await env.host.registerAndLogin();
  const question = { video_url: VIDEO, question: 'Is the Surface Go a good laptop?' };

  const first = await ask(question, token);
  const cached = await ask({ ...question, question: 'is the surface go a GOOD laptop?' }, token);
  const summary = await env.host.request('POST', '/summarize', {
    json: { video_url: VIDEO, summary_length: 77 },
    token,
  });
  const refused = await ask({ video_url: VIDEO, question: 'How long does it last?' }, token);

  expect(first.status).toBe(200);
  expect(cached.body.metadata.cached).toBe(true);
  expect(summary.status).toBe(200);
  expect(refused.status).toBe(429);
  expect(refused.body.type).toBe('urn:tubesum:problem:quota-exceeded');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
});

it('charges nothing for a question of invisible characters: 422, and the day’s units stay', async () => {
  const { token } = await env.host.registerAndLogin();
  const blank = ['\u200B', '\u2060\u2060', '\u3164', '\u2800', '\u00AD', '\u115F\u1160'];

  const refused = await Promise.all(
    blank.map((question) => ask({ video_url: VIDEO, question }, token)),
  );
  const first = await ask({ video_url: VIDEO, question: 'What is it about?' }, token);
  const second = await ask({ video_url: VIDEO, question: 'Who made it?' }, token);

  expect(refused.map((response) => response.status)).toEqual(blank.map(() => 422));
  expect(refused[0]?.body.errors).toEqual([{ field: 'question', message: 'Write a question.' }]);
  // SUMMARY_DAILY_QUOTA is 2: both units were still there.
  expect(first.status).toBe(200);
  expect(second.status).toBe(200);
});

it('gives the unit back when the model fails, and keeps it when YouTube answered the lookup', async () => {
  const { token } = await env.host.registerAndLogin();
  env.openai.script(OPENAI_MODEL_NAME, ['unavailable', 'success']);

  const failed = await ask(
    { video_url: VIDEO, question: 'What is it about?', used_model: OPENAI_MODEL_NAME },
    token,
  );
  const missing = await ask({ video_url: FAKE_VIDEO_IDS.unavailable, question: 'Why?' }, token);
  const answered = await ask(
    { video_url: VIDEO, question: 'What is it about?', used_model: OPENAI_MODEL_NAME },
    token,
  );
  const refused = await ask({ video_url: VIDEO, question: 'And the keyboard?' }, token);

  expect(failed.status).toBe(503);
  expect(failed.body.type).toBe('urn:tubesum:problem:model-unavailable');
  expect(missing.status).toBe(404);
  expect(answered.status).toBe(200);
  // The failed call was not charged, the missing video was: two units, the day's last.
  expect(refused.status).toBe(429);
});

it('answers 504 model-timeout within its deadline when the model hangs, and charges nothing', async () => {
  const { token } = await env.host.registerAndLogin();
  env.openai.script(OPENAI_MODEL_NAME, ['hang']);
  const body = { video_url: VIDEO, question: 'Does it hang?', used_model: OPENAI_MODEL_NAME };

  const startedAt = Date.now();
  const timedOut = await ask(body, token);
  const elapsed = Date.now() - startedAt;

  expect(timedOut.status).toBe(504);
  expect(timedOut.body.type).toBe('urn:tubesum:problem:model-timeout');
  // It waited for the deadline (a hanging model answers nothing: only the deadline ends it),
  // not a moment less; how much longer a loaded machine takes to say so is not the point.
  expect(elapsed).toBeGreaterThanOrEqual(ASK_DEADLINE_MS - 500);
  // Both units are still there.
  expect((await ask({ ...body, question: 'One?', used_model: 'extractive' }, token)).status).toBe(
    200,
  );
  expect((await ask({ ...body, question: 'Two?', used_model: 'extractive' }, token)).status).toBe(
    200,
  );
});
