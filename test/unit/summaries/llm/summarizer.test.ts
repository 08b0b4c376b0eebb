// The model summarizer's limits, against a fake ChatModel that answers what each test needs:
// how long a summary may be (known before any call where it can be), how many calls a summary
// may make, and how much of a model's answer is kept.
import { describe, expect, it } from 'vitest';
import type { ModelLimits } from '../../../../lib/summaries/llm/plan';
import {
  type ChatModel,
  type ChatRequest,
  createLlmSummarizer,
} from '../../../../lib/summaries/llm/summarizer';
import type { VideoMetadata } from '../../../../lib/youtube/types';
import { countedString } from '../../../support/counted-string';
import { echoAnswer } from '../../../support/echo-model';
import { failure } from '../../../support/errors';
import {
  buildLongTranscript,
  loadSharedMetadata,
  loadSharedTranscript,
} from '../../../support/transcripts';

const metadata: VideoMetadata = { ...loadSharedMetadata(), description: 'A video.' };
const long = buildLongTranscript(30_000);
const short = loadSharedTranscript();
const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** A ChatModel answering `answer(request)` (the echo answer by default), keeping the requests. */
function fakeChat(answer: (request: ChatRequest) => string = (request) => echoOf(request)) {
  const requests: ChatRequest[] = [];
  const chat: ChatModel = {
    async complete(request) {
      requests.push(request);
      return { text: answer(request), inputTokens: 10, outputTokens: 10 };
    },
  };
  return { chat, requests };
}
const echoOf = (request: ChatRequest) =>
  echoAnswer({ system: request.system, userText: request.user });

/** A window the whole short transcript fits in. */
const large: ModelLimits = {
  name: 'large',
  contextTokens: 32_768,
  maxOutputTokens: 8_192,
  reasoningReserveTokens: 0,
};
/** An OpenAI-compatible model as OPENAI_MODELS makes it by default: a 4,096-token window. */
const small: ModelLimits = {
  name: 'small',
  contextTokens: 4_096,
  maxOutputTokens: 1_024,
  reasoningReserveTokens: 0,
};

const summarize = (
  chat: ChatModel,
  limits: ModelLimits,
  targetWords: number,
  transcript = long,
  keyPoints = true,
) =>
  createLlmSummarizer({ chat, limits, concurrency: 2 }).summarize({
    transcript,
    metadata,
    targetWords,
    keyPoints,
    signal: AbortSignal.timeout(20_000),
  });

describe('summary lengths a model cannot make', () => {
  it('refuses 1,500 words of a 3-hour transcript on a 4,096-token window with 422, before any call', async () => {
    const { chat, requests } = fakeChat();

    const error = await failure(summarize(chat, small, 1_500));

    expect(error.status).toBe(422);
    expect(error.type).toBe('summary-length-unsupported');
    expect(error.extensions.max_summary_length).toEqual(expect.any(Number));
    expect(error.extensions.max_summary_length).toBeLessThan(1_500);
    expect(requests).toHaveLength(0);
  });

  it('makes the longest summary it says it can', async () => {
    const { chat } = fakeChat();
    const error = await failure(summarize(chat, small, 1_500));
    const longest = error.extensions.max_summary_length as number;

    const result = await summarize(chat, small, longest);

    expect(result.chunks).toBeGreaterThan(1);
    expect(words(result.summary)).toHaveLength(longest);
  });

  it('ends with 422, not a plain error, when part summaries come out too long to combine', async () => {
    // Every answer runs to twice the words asked, with long words: the plan's sizes do not hold.
    const { chat, requests } = fakeChat((request) => {
      const asked = Number(/about (\d+) words/.exec(request.system)?.[1]);
      return 'Abundantly verbose. '.repeat(asked);
    });

    const error = await failure(summarize(chat, small, 300));

    expect(error.status).toBe(422);
    expect(error.type).toBe('summary-length-unsupported');
    expect(error.extensions.max_summary_length).toBeLessThan(300);
    expect(error.message).toContain('part summaries do not fit');
    expect(requests.length).toBeGreaterThan(0);
  });
});

describe('model calls per summary', () => {
  it('makes at most twice the parts plus one calls, then ends with 422, when combinations barely shrink', async () => {
    // Combining two summaries gives a short one; "combining" one gives it back as long as the
    // model may: each round of combinations then saves one item, and never converges.
    const bulky = (request: ChatRequest) =>
      `${'Considerable elaboration continues here. '.repeat(40)}`.slice(0, 16 * stepWords(request));
    const { chat, requests } = fakeChat((request) => {
      if (request.step === 'part')
        return /This is part 1 of/.test(request.user) ? 'Short.' : bulky(request);
      const items = request.user.match(/^\[Part \d+\]$/gm)?.length ?? 0;
      return items >= 2 ? 'Short.' : bulky(request);
    });
    const tight: ModelLimits = { ...small, contextTokens: 2_300, maxOutputTokens: 1_000 };

    const error = await failure(summarize(chat, tight, 25, long, false));

    const parts = requests.filter((request) => request.step === 'part').length;
    expect(parts).toBeGreaterThan(5);
    expect(requests.length).toBe(2 * parts + 1);
    expect(error.status).toBe(422);
    expect(error.message).toContain(`cannot be combined within ${2 * parts + 1} calls`);
    expect(error.type).toBe('summary-length-unsupported');
  });
});

const stepWords = (request: ChatRequest) => Number(/about (\d+) words/.exec(request.system)?.[1]);

describe('what is kept of an answer', () => {
  it('refuses an answer of 10 MB with 502 model-error, having read nothing of it but its length', async () => {
    // "Quickly" is "before parsing it": the size check comes first. A read of any of its
    // characters would throw here (limit 0), and so fail the test.
    const { text, read } = countedString(
      `SUMMARY:\n${'All work and no play. '.repeat(500_000)}`,
      0,
    );
    const { chat } = fakeChat(() => text);

    const error = await failure(summarize(chat, large, 100, short));

    expect(error.status).toBe(502);
    expect(error.type).toBe('model-error');
    expect(read()).toBe(0);
  });

  it('cuts a summary far longer than asked at a sentence end, and keeps the key points asked for', async () => {
    const sentence = 'Kernels find edges in images. ';
    const points = Array.from(
      { length: 40 },
      () => '[1:20] Sobel operations are used for edge detection.',
    );
    const { chat, requests } = fakeChat(() =>
      ['SUMMARY:', sentence.repeat(100).trim(), 'KEY POINTS:', ...points].join('\n'),
    );

    const result = await summarize(chat, large, 60, short);

    expect(requests).toHaveLength(1);
    expect(words(result.summary).length).toBeLessThanOrEqual(120);
    expect(words(result.summary).length).toBeGreaterThan(60);
    expect(result.summary.endsWith('images.')).toBe(true);
    expect(result.keyPoints.length).toBeLessThanOrEqual(3);
  });

  it('cuts a summary in a script without spaces by its characters', async () => {
    const { chat } = fakeChat(() => '卷积网络学习卷积。'.repeat(500));

    const result = await summarize(chat, large, 100, short);

    expect(result.summary.length).toBeLessThanOrEqual(1_600);
    expect(result.summary.endsWith('。')).toBe(true);
  });
});
