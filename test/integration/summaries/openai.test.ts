// Summaries by a model of an OpenAI-compatible server: the real `openai` client against a local
// stub that speaks `POST /v1/chat/completions` as OpenAI, Ollama and vLLM do.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type OpenAiModel, resolveModel } from '../../../lib/models/catalog';
import {
  createOpenAiChat,
  createOpenAiClient,
  type OpenAiChatOptions,
} from '../../../lib/models/openai';
import { createLlmSummarizer } from '../../../lib/summaries/llm/summarizer';
import { buildCatalog } from '../../../lib/summaries/offer';
import { echoSummary } from '../../support/echo-model';
import { failure } from '../../support/errors';
import { type OpenAiStub, startOpenAiStub } from '../../support/openai-stub';
import {
  buildLongTranscript,
  loadSharedMetadata,
  loadSharedTranscript,
} from '../../support/transcripts';

const metadata = loadSharedMetadata();
const transcript = loadSharedTranscript();
const catalog = buildCatalog({
  openai: { models: ['llama3.2@32768', 'Qwen2.5:14b'], contextTokens: 4_096 },
});
const llama = resolveModel(catalog, 'llama3.2') as OpenAiModel;
const qwen = resolveModel(catalog, 'qwen2.5:14b') as OpenAiModel;
const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** A Logger that keeps its lines. */
function fakeLogger() {
  const lines: { level: string; message: string; extra?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, extra?: Record<string, unknown>) => {
    lines.push({ level, message, ...(extra ? { extra } : {}) });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

let stub: OpenAiStub;
beforeAll(async () => {
  stub = await startOpenAiStub();
});
afterAll(() => stub?.close());
beforeEach(() => stub.reset());

/** The summarizer a worker makes of the model (lib/models/clients.ts). */
const summarizer = ({
  concurrency = 2,
  ...overrides
}: Partial<OpenAiChatOptions> & { concurrency?: number } = {}) => {
  const options: OpenAiChatOptions = {
    client: createOpenAiClient({ baseUrl: stub.baseUrl }),
    model: llama,
    maxAttempts: 3,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    ...overrides,
  };
  return createLlmSummarizer({
    chat: createOpenAiChat(options),
    limits: options.model,
    concurrency,
  });
};

const input = (targetWords = 120, signal = AbortSignal.timeout(20_000)) => ({
  transcript,
  metadata,
  targetWords,
  signal,
});

describe('the OPENAI_MODELS catalog entries', () => {
  it('offer each name lower-cased, send it as written, and take a context size after @', () => {
    expect(catalog.names).toEqual(
      expect.arrayContaining(['extractive', 'llama3.2', 'qwen2.5:14b']),
    );
    expect(llama).toMatchObject({ kind: 'openai', modelId: 'llama3.2', contextTokens: 32_768 });
    expect(qwen).toMatchObject({ modelId: 'Qwen2.5:14b', contextTokens: 4_096 });
    expect(() =>
      buildCatalog({ openai: { models: ['nova-micro'], contextTokens: 4_096 } }),
    ).toThrow(/OPENAI_MODELS: "nova-micro" is already the name of a model/);
    expect(() => buildCatalog({ openai: { models: ['llama@'], contextTokens: 4_096 } })).toThrow(
      /OPENAI_MODELS: "llama@" must end in @ and a context size/,
    );
  });
});

describe('a model of an OpenAI-compatible server', () => {
  it('returns the server’s text and token usage, from one chat completion', async () => {
    const result = await summarizer().summarize(input(120));

    const [request] = stub.requests;
    expect(stub.requests).toHaveLength(1);
    expect(request?.model).toBe('llama3.2');
    // 1.5 tokens per word plus 150, 40 per key point (3 for 120 words) and 80 per chapter (3
    // for the 20-minute talk).
    expect(request?.body).toMatchObject({ max_tokens: 690, temperature: 0.2 });
    expect(request?.body.messages?.map((message) => message.role)).toEqual(['system', 'user']);
    expect(result.summary).toBe(echoSummary(request as NonNullable<typeof request>));
    expect(words(result.summary)).toHaveLength(120);
    const usage =
      (request?.response?.body as { usage: Record<string, number> } | undefined)?.usage ?? {};
    expect(result.inputTokens).toBe(usage.prompt_tokens);
    expect(result.outputTokens).toBe(usage.completion_tokens);
    expect(result.keyPoints.length).toBeGreaterThan(0);
  });

  it('sends no Authorization header without a key, and the key as a bearer token with one', async () => {
    await summarizer().summarize(input());
    stub.requireKey('sk-local-123');
    await summarizer({
      client: createOpenAiClient({ baseUrl: stub.baseUrl, apiKey: 'sk-local-123' }),
    }).summarize(input());

    expect(stub.requests[0]?.headers.authorization).toBeUndefined();
    expect(stub.requests[1]?.headers.authorization).toBe('Bearer sk-local-123');
    expect(stub.requests[1]?.response?.status).toBe(200);
  });

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    stub.script('llama3.2', ['throttle', 'unavailable', 'success']);
    const logger = fakeLogger();

    const result = await summarizer({ logger }).summarize(input());

    expect(stub.requests.map((request) => request.response?.status)).toEqual([429, 503, 200]);
    expect(result.summary).not.toBe('');
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(2);
  });

  it('answers 503 model-throttled with the server’s Retry-After when 429 persists', async () => {
    stub.script('llama3.2', ['throttle']);

    const error = await failure(summarizer().summarize(input()));

    expect(stub.requests).toHaveLength(3);
    expect(error.status).toBe(503);
    expect(error.type).toBe('model-throttled');
    expect(error.headers['Retry-After']).toBe('7');
  });

  it('answers 503 model-unavailable when the server is down', async () => {
    const down = await startOpenAiStub();
    const baseUrl = down.baseUrl;
    await down.close();

    const error = await failure(
      summarizer({ client: createOpenAiClient({ baseUrl }) }).summarize(input()),
    );

    expect(error.status).toBe(503);
    expect(error.type).toBe('model-unavailable');
  });

  it('answers 502 model-access-denied without the server’s words when it refuses the key', async () => {
    stub.script('llama3.2', ['unauthorized']);
    const logger = fakeLogger();

    const error = await failure(summarizer({ logger }).summarize(input()));

    expect(stub.requests).toHaveLength(1);
    expect(error.status).toBe(502);
    expect(error.type).toBe('model-access-denied');
    expect(error.message).not.toMatch(/Incorrect|API key|platform/);
    expect(logger.lines).toMatchObject([
      { level: 'error', message: expect.stringContaining('OPENAI_API_KEY') },
    ]);
  });

  it('answers 502 model-error, telling the operator, for a model the server does not know', async () => {
    stub.script('llama3.2', ['unknown-model']);
    const logger = fakeLogger();

    const error = await failure(summarizer({ logger }).summarize(input()));

    expect(error.status).toBe(502);
    expect(error.type).toBe('model-error');
    expect(error.message).not.toContain('pulling');
    expect(logger.lines[0]?.message).toContain('OPENAI_MODELS');
  });

  it('answers 504 when the deadline passes while the server never answers, without waiting for it', async () => {
    stub.script('llama3.2', ['hang']);
    const deadline = new AbortController();

    const answer = failure(summarizer().summarize(input(120, deadline.signal)));
    // The deadline passes once the server has the request (an event, not a clock): a summarizer
    // that waited for the server would never answer, and the test would time out.
    await vi.waitFor(() => expect(stub.requests).toHaveLength(1), { timeout: 20_000 });
    deadline.abort(new DOMException('The deadline passed.', 'TimeoutError'));
    const error = await answer;

    expect(error.status).toBe(504);
    expect(error.type).toBe('model-timeout');
    // No retry once the deadline passed.
    expect(stub.requests).toHaveLength(1);
  });

  it('summarises a long transcript in parts that each fit the model’s context', async () => {
    const long = buildLongTranscript(12_000);

    const result = await summarizer({ model: qwen }).summarize({
      ...input(200, AbortSignal.timeout(20_000)),
      transcript: long,
    });

    expect(result.chunks).toBeGreaterThan(1);
    expect(stub.requests.length).toBeGreaterThan(result.chunks);
    for (const request of stub.requests) {
      const estimated = Math.ceil((request.system.length + request.userText.length) / 3);
      expect(estimated + (request.body.max_tokens ?? 0)).toBeLessThanOrEqual(4_096);
    }
    expect(words(result.summary)).toHaveLength(200);
  });
});
