// Model calls to an OpenAI-compatible server follow transcription's rule (issue 34): a call the
// server may still be working on (its connection closed after the request went out, or the
// answer cut off) is never sent again; a server error is. Over real HTTP, with the real client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAiModel, resolveModel } from '../../../lib/models/catalog';
import { createOpenAiChat, createOpenAiClient } from '../../../lib/models/openai';
import { buildCatalog } from '../../../lib/summaries/offer';
import { failure } from '../../support/errors';

const catalog = buildCatalog({ openai: { models: ['llama3.2'], contextTokens: 8_192 } });
const model = resolveModel(catalog, 'llama3.2') as OpenAiModel;
const completion = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 0,
  model: 'llama3.2',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'A summary.' }, finish_reason: 'stop' },
  ],
});

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A server that answers each request as `answers` says, in turn; how many it received. */
async function serverAnswering(answers: ('close' | 'cut' | 500 | 200)[]) {
  let received = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = answers[Math.min(received, answers.length - 1)];
      received++;
      if (answer === 'close') req.socket.destroy();
      else if (answer === 'cut') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write(completion.slice(0, 40), () => req.socket.destroy());
      } else if (answer === 500) res.writeHead(500).end('{"error":{"message":"overloaded"}}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const chat = createOpenAiChat({
    client: createOpenAiClient({ baseUrl: `http://127.0.0.1:${port}/v1` }),
    model,
    maxAttempts: 3,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 10,
  });
  const ask = () =>
    chat.complete(
      { system: 'Summarise.', user: 'Some text.', maxTokens: 50, step: 'whole' },
      AbortSignal.timeout(10_000),
    );
  return { ask, received: () => received };
}

describe('a model call', () => {
  it.each([
    ['closed once the request is in', 'close'],
    ['whose answer is cut off', 'cut'],
  ] as const)('%s is not sent again: 503 model-unavailable', async (_what, answer) => {
    const server = await serverAnswering([answer, 200]);

    const error = await failure(server.ask());

    expect(error.status).toBe(503);
    expect(error.type).toBe('model-unavailable');
    expect(server.received()).toBe(1);
  });

  it('that the server failed (5xx) is sent again', async () => {
    const server = await serverAnswering([500, 200]);

    const answer = await server.ask();

    expect(answer.text).toBe('A summary.');
    expect(server.received()).toBe(2);
  });
});
