// The operations of a chat with an OpenAI-compatible server, each alone: what is read from the
// server's 200 (readCompletion) and how a call is sent again or failed (sendChat). The fake
// client answers as openai 6.x's `chat.completions.create` does: the parsed body of a 200
// (the text itself when the server did not label it JSON), or the APIError subclass
// APIError.generate picks for an HTTP error (node_modules/openai/core/error.js).
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { type OpenAiModel, resolveModel } from '../../../lib/models/catalog';
import type { ChatRequest } from '../../../lib/models/chat';
import { type OpenAiChatDeps, readCompletion, sendChat } from '../../../lib/models/openai';
import { buildCatalog } from '../../../lib/summaries/offer';
import { failure } from '../../support/errors';

const model = resolveModel(
  buildCatalog({ openai: { models: ['llama3.2@32768'], contextTokens: 4_096 } }),
  'llama3.2',
) as OpenAiModel;
const request: ChatRequest = {
  system: 'Summarize.',
  user: 'A transcript.',
  maxTokens: 300,
  step: 'whole',
};

function fakeLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => {
    lines.push({ level, message });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** Deps whose client answers each call with the next of `answers` (an Error is thrown). */
function depsAnswering(answers: unknown[], maxAttempts = 3) {
  const logger = fakeLogger();
  const sent: { body: unknown; signal: AbortSignal | undefined }[] = [];
  const client = {
    chat: {
      completions: {
        create: async (body: unknown, options?: { signal?: AbortSignal }) => {
          sent.push({ body, signal: options?.signal });
          const answer = answers[Math.min(sent.length, answers.length) - 1];
          if (answer instanceof Error) throw answer;
          return answer;
        },
      },
    },
  } as unknown as Pick<OpenAI, 'chat'>;
  const deps: OpenAiChatDeps = {
    client,
    model,
    provider: {
      name: 'the model server',
      advice: { 'access-denied': 'check the key', 'not-found': 'check the model' },
      retryAfter: { throttled: 5, unavailable: 10 },
      logger,
    },
    maxAttempts,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 2,
    logger,
  };
  return { deps, sent, logger };
}

const completion = (content: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  ...extra,
});
const httpError = (status: number, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error: { message: 'no' } }, undefined, new Headers(headers));

describe('readCompletion', () => {
  const { deps } = depsAnswering([]);

  it('returns the trimmed text, with the usage only when the server counted both sides', () => {
    expect(
      readCompletion(
        deps,
        completion('  A summary. \n', { usage: { prompt_tokens: 120, completion_tokens: 30 } }),
        request,
      ),
    ).toEqual({ text: 'A summary.', inputTokens: 120, outputTokens: 30 });
    expect(
      readCompletion(deps, completion('A summary.', { usage: { prompt_tokens: 120 } }), request),
    ).toEqual({
      text: 'A summary.',
    });
  });

  it('answers 502 model-error for a 200 that is no chat completion (a proxy’s page, {}, null, a list)', async () => {
    for (const body of [
      '<html>Bad gateway</html>',
      {},
      null,
      [],
      { choices: [] },
      { choices: 'x' },
    ]) {
      const error = await failure((async () => readCompletion(deps, body, request))());
      expect(error.status, JSON.stringify(body)).toBe(502);
      expect(error.type).toBe('model-error');
    }
  });

  it('answers 502 model-error for an empty or non-text answer, and logs it for the operator', async () => {
    const { deps, logger } = depsAnswering([]);
    for (const content of ['', '   \n', null]) {
      const error = await failure(
        (async () => readCompletion(deps, completion(content), request))(),
      );
      expect(error.type).toBe('model-error');
    }
    expect(logger.lines).toEqual(
      Array(3).fill({ level: 'error', message: 'the model server returned no summary text' }),
    );
  });

  it('keeps an answer cut at max_tokens, with a warning', () => {
    const { deps: own, logger: warned } = depsAnswering([]);
    const cut = completion('A summary that', {});
    (cut.choices[0] as { finish_reason: string }).finish_reason = 'length';
    expect(readCompletion(own, cut, request).text).toBe('A summary that');
    expect(warned.lines).toEqual([
      { level: 'warn', message: expect.stringContaining('max_tokens') },
    ]);
  });
});

describe('sendChat', () => {
  it('sends the request as the server expects: system and user messages, max_tokens', async () => {
    const { deps, sent } = depsAnswering([completion('ok')]);
    await sendChat(deps, request, AbortSignal.timeout(5_000));
    expect(sent[0]?.body).toMatchObject({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Summarize.' },
        { role: 'user', content: 'A transcript.' },
      ],
      max_tokens: 300,
    });
  });

  it('sends a 429 or 5xx again up to maxAttempts, then answers 503 with the server’s Retry-After', async () => {
    const { deps, sent } = depsAnswering(
      [httpError(503), httpError(429, { 'retry-after': '42' })],
      3,
    );
    const error = await failure(sendChat(deps, request, AbortSignal.timeout(5_000)));
    expect(sent).toHaveLength(3);
    expect(error.status).toBe(503);
    expect(error.type).toBe('model-throttled');
    expect(error.headers['Retry-After']).toBe('42');
  });

  it('returns what a later attempt got after a failure worth sending again', async () => {
    const { deps, sent } = depsAnswering([httpError(502), completion('second time')]);
    expect(await sendChat(deps, request, AbortSignal.timeout(5_000))).toEqual(
      completion('second time'),
    );
    expect(sent).toHaveLength(2);
  });

  it('sends a refusal once: a 400 (such as a prompt past the context) is 502 model-error', async () => {
    const { deps, sent } = depsAnswering([httpError(400), completion('never')]);
    const error = await failure(sendChat(deps, request, AbortSignal.timeout(5_000)));
    expect(sent).toHaveLength(1);
    expect(error.status).toBe(502);
    expect(error.type).toBe('model-error');
  });

  it('gives each attempt a signal of its own that the deadline aborts', async () => {
    const deadline = new AbortController();
    const { deps, sent } = depsAnswering([httpError(500), completion('ok')]);
    await sendChat(deps, request, deadline.signal);
    expect(sent[0]?.signal).not.toBe(deadline.signal);
    expect(sent[0]?.signal).not.toBe(sent[1]?.signal);
    deadline.abort();
    expect(sent.every((each) => each.signal?.aborted === false)).toBe(true);
  });

  it('answers 504 model-timeout when the deadline passed, and leaves a bug of ours as it is', async () => {
    const deadline = new AbortController();
    deadline.abort();
    const { deps } = depsAnswering([new OpenAI.APIUserAbortError()]);
    expect((await failure(sendChat(deps, request, deadline.signal))).status).toBe(504);
    const bug = new TypeError('cannot read properties of undefined');
    const { deps: buggy } = depsAnswering([bug]);
    await expect(sendChat(buggy, request, AbortSignal.timeout(5_000))).rejects.toBe(bug);
  });
});
