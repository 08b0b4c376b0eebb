// A model with a 2,048-token window (the default context of the most used local model server
// until 2025, and still that of many small models) summarises a 10-minute talk in parts, every
// call within its window (each prompt's description and chapters get what the window leaves:
// test/unit/summaries/llm/small-window.test.ts). Over HTTP against the real local host and the
// OpenAI-compatible stub.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import {
  jobIdOf,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
} from '../../support/summarize-env';
import { buildLongTranscript, toCaptionXml } from '../../support/transcripts';

const VIDEO = `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`;
const SMALL = 'small-model';
const WINDOW = 2_048;
/** Ten minutes of a talk at a brisk lecturer's pace. */
const TEN_MINUTES = buildLongTranscript(1_700);
/** What the recorded video's description starts with (test/fixtures/youtube). */
const DESCRIPTION_START = 'Description: Dave2D review of the Microsoft Surface Go.';

let env: SummarizeEnv;
beforeAll(async () => {
  env = await startSummarizeEnv({ OPENAI_MODELS: `llama3.2@32768,${SMALL}@${WINDOW}` });
});
afterAll(() => env?.close());
beforeEach(() => {
  env.openai.reset();
  env.youtube.setEnglishTrack(toCaptionXml(TEN_MINUTES.segments));
});

const summarize = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  env.host.request('POST', '/summarize', { json: body, token: env.token, headers });

describe(`a model with a window of ${WINDOW} tokens`, () => {
  it('summarises a 10-minute talk in parts, each call within its window', async () => {
    // As a job, so that a loaded machine's slower calls do not change what is checked.
    const queued = await summarize(
      { video_url: VIDEO, used_model: SMALL, summary_length: 100 },
      { prefer: 'respond-async' },
    );
    const { last } = await pollJob(env.host, env.token, jobIdOf(queued));

    expect(last.body.status).toBe('done');
    const { result } = last.body;
    expect(result.metadata.chunks).toBeGreaterThan(1);
    expect(result.summary.split(/\s+/).length).toBeGreaterThan(50);
    const calls = env.openai.requestsFor(SMALL);
    expect(calls.length).toBeGreaterThan(result.metadata.chunks);
    for (const call of calls) {
      // The service's own estimate (3 characters a token) plus the answer it allows.
      const estimated = Math.ceil((call.system.length + call.userText.length) / 3);
      expect(estimated + (call.body.max_tokens ?? 0)).toBeLessThanOrEqual(WINDOW);
      // The video's description, as much as the window leaves (test/unit/.../small-window).
      expect(call.userText).toContain(DESCRIPTION_START);
    }
  });

  it('refuses a summary longer than the window can make with 422 and the longest it can', async () => {
    const response = await summarize({ video_url: VIDEO, used_model: SMALL, summary_length: 400 });

    expect(response.status).toBe(422);
    expect(response.body.type).toBe('urn:tubesum:problem:summary-length-unsupported');
    expect(response.body.max_summary_length).toBeGreaterThanOrEqual(100);
    expect(env.openai.requests).toHaveLength(0);
  });
});
