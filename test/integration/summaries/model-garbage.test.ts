// A model server that answers HTTP 200 with no chat completion (a proxy's HTML page, `{}`,
// `null`, JSON cut mid-way) is the model's failure, 502 model-error, as Bedrock's garbage is:
// on POST /summarize (answered at once and as a job), on POST /ask and through MCP's tools;
// never a 500. Over HTTP against the real local host and the OpenAI-compatible stub.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyOf } from '../../support/api-keys';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import type { ChatStep } from '../../support/openai-stub';
import {
  jobIdOf,
  OPENAI_MODEL_NAME,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
} from '../../support/summarize-env';

const VIDEO = `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`;
const MODEL_ERROR = { type: 'urn:tubesum:problem:model-error', status: 502 };

let env: SummarizeEnv;
let mcp: Client;
beforeAll(async () => {
  env = await startSummarizeEnv();
  mcp = new Client({ name: 'tubesum-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${env.host.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${await apiKeyOf(env.host, env.token)}` } },
    }),
  );
});
afterAll(async () => {
  await mcp?.close();
  await env?.close();
});
beforeEach(() => env.openai.reset());

let seed = 100;
/** A summary_length and a question no other request used, so nothing answers from a record. */
const fresh = () => seed++;

/** The problem of a tool error (its last text block). */
function toolProblem(result: CallToolResult) {
  const last = result.content.at(-1);
  return JSON.parse(last?.type === 'text' ? last.text : '{}');
}

const GARBAGE: [string, ChatStep][] = [
  [
    'a proxy’s HTML page',
    { raw: '<html><body><h1>502 Bad Gateway</h1></body></html>', contentType: 'text/html' },
  ],
  ['an HTML page labelled JSON', { raw: '<!DOCTYPE html><html><body>Sign in</body></html>' }],
  ['{}', { raw: '{}' }],
  ['null', { raw: 'null' }],
  ['a list', { raw: '[]' }],
  ['choices without a message', { raw: '{"object":"chat.completion","choices":[{"index":0}]}' }],
  [
    'JSON cut mid-way',
    { raw: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"ro' },
  ],
];

describe('a model server answering 200 with no chat completion', () => {
  it.each(GARBAGE)('answers 502 model-error for %s, on every route', async (_name, step) => {
    env.openai.script(OPENAI_MODEL_NAME, [step]);
    const summary = (length: number) => ({
      video_url: VIDEO,
      used_model: OPENAI_MODEL_NAME,
      summary_length: length,
    });
    const question = (n: number) => ({
      video_url: VIDEO,
      used_model: OPENAI_MODEL_NAME,
      question: `What is said about topic ${n}?`,
    });

    const direct = await env.host.request('POST', '/summarize', {
      json: summary(fresh()),
      token: env.token,
    });
    const queued = await env.host.request('POST', '/summarize', {
      json: summary(fresh()),
      token: env.token,
      headers: { prefer: 'respond-async' },
    });
    const { last: job } = await pollJob(env.host, env.token, jobIdOf(queued));
    const asked = await env.host.request('POST', '/ask', {
      json: question(fresh()),
      token: env.token,
    });
    const toolSummary = (await mcp.callTool({
      name: 'summarize_video',
      arguments: summary(fresh()),
    })) as CallToolResult;
    const toolAnswer = (await mcp.callTool({
      name: 'ask_video',
      arguments: question(fresh()),
    })) as CallToolResult;

    // The server was asked each time, and answered garbage each time.
    expect(env.openai.requests.length).toBeGreaterThanOrEqual(5);
    expect(env.openai.requests.every((request) => request.response?.status === 200)).toBe(true);
    expect(direct.status).toBe(502);
    expect(direct.body).toMatchObject(MODEL_ERROR);
    expect(queued.status).toBe(202);
    expect(job.body.status).toBe('failed');
    expect(job.body.error).toMatchObject(MODEL_ERROR);
    expect(asked.status).toBe(502);
    expect(asked.body).toMatchObject(MODEL_ERROR);
    expect(toolSummary.isError).toBe(true);
    expect(toolProblem(toolSummary)).toMatchObject(MODEL_ERROR);
    expect(toolAnswer.isError).toBe(true);
    expect(toolProblem(toolAnswer)).toMatchObject(MODEL_ERROR);
  });

  it('does not send again a call whose answer’s connection closes halfway: 503 model-unavailable', async () => {
    env.openai.script(OPENAI_MODEL_NAME, ['cut-off']);

    const response = await env.host.request('POST', '/summarize', {
      json: { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: fresh() },
      token: env.token,
    });

    // The server may have done the work: the call is not sent again (issue 34), and the
    // failure is a transient one.
    expect(env.openai.requests).toHaveLength(1);
    expect(response.status).toBe(503);
    expect(response.body.type).toBe('urn:tubesum:problem:model-unavailable');
    expect(response.headers.get('retry-after')).toBe('10');
  });
});
