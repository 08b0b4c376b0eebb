// `npm start` on a laptop without AWS credentials, whose OPENAI_MODELS names a model with a
// window too small for any summary: a child process as a user runs it. It says at start which
// models it offers, why that one is left out (naming OPENAI_MODELS) and, in one line, how to add
// Bedrock's; it offers no Bedrock model (page, OpenAPI document, MCP, allowed_models), and every
// route works: only a request for the model left out fails, 503 server-misconfigured.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readinessBudget } from '../../support/budget';
import { FAKE_VIDEO_IDS, type FakeYouTube, startFakeYouTube } from '../../support/fake-youtube';
import { newUser, TEST_SECRET } from '../../support/host';
import { waitForOutput } from '../../support/local-process';
import { type OpenAiStub, startOpenAiStub } from '../../support/openai-stub';

const READY_MS = readinessBudget();
const VIDEO = `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`;
// biome-ignore lint/suspicious/noExplicitAny: JSON as the tests read it
type Json = any;
let child: ChildProcess;
let output = '';
let url = '';
let token = '';
let mcpKey = '';
let youtube: FakeYouTube;
let openai: OpenAiStub;

/** The environment of a laptop with no AWS credentials anywhere the SDK looks. */
function withoutAwsCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const empty = join(mkdtempSync(join(tmpdir(), 'no-aws-')), 'empty');
  writeFileSync(empty, '');
  const {
    AWS_ACCESS_KEY_ID: _key,
    AWS_SECRET_ACCESS_KEY: _secret,
    AWS_SESSION_TOKEN: _session,
    AWS_PROFILE: _profile,
    ...rest
  } = env;
  return {
    ...rest,
    AWS_CONFIG_FILE: empty,
    AWS_SHARED_CREDENTIALS_FILE: empty,
    // No instance role either (and no waiting for the metadata service that would give one).
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

beforeAll(async () => {
  youtube = await startFakeYouTube();
  openai = await startOpenAiStub();
  child = spawn(process.execPath, ['--env-file=infra/local/local.env', 'infra/local/start.mjs'], {
    env: {
      ...withoutAwsCredentials(process.env),
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: `models-${Date.now()}`,
      JWT_SECRET: TEST_SECRET,
      BCRYPT_COST: '10',
      PORT: '0',
      HOST: '127.0.0.1',
      YOUTUBE_BASE_URL: youtube.baseUrl,
      YOUTUBE_API_BASE_URL: youtube.baseUrl,
      OPENAI_BASE_URL: openai.baseUrl,
      // 700 tokens cannot hold any summary's prompt; 2,048 can.
      OPENAI_MODELS: 'cramped@700,small@2048',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  url =
    (
      await waitForOutput(
        () => output,
        /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m,
        READY_MS,
        child,
      )
    )[1] ?? '';
  const user = newUser();
  await post('/register', user);
  token = ((await (await post('/token', user)).json()) as Json).access_token;
  // /mcp takes API keys (and its own OAuth tokens), not login tokens.
  mcpKey = ((await (await post('/api-keys', { name: 'agent' })).json()) as Json).key;
}, READY_MS + 30_000);
afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  await youtube?.close();
  await openai?.close();
});

const get = (path: string) => fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
const post = (path: string, body: unknown, bearer = token) =>
  fetch(url + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });

describe('npm start without AWS credentials and with a model whose window is too small', () => {
  it('says at start which models it offers, why one is left out, and how to add Bedrock’s', () => {
    const before = output.slice(0, output.indexOf('listening on'));

    expect(before).toMatch(/^models: extractive, small$/m);
    expect(before).toMatch(
      /^warning: OPENAI_MODELS: "cramped@700" is left out: it cannot make a summary of 25 words.*at least \d+ tokens$/m,
    );
    const bedrock = before.split('\n').filter((line) => line.includes('Bedrock'));
    expect(bedrock).toHaveLength(1);
    expect(bedrock[0]).toMatch(/no AWS credentials.*aws sso login.*AWS_ACCESS_KEY_ID/);
  });

  it('offers no Bedrock model and not the one left out, on the page, in the document and to MCP', async () => {
    const page = await (await get('/')).text();
    const document: Json = await (await get('/openapi.json')).json();
    const tools: Json = await (
      await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, mcpKey)
    ).json();
    const unknown = await post('/summarize', { video_url: VIDEO, used_model: 'nova-micro' });

    const offered = document.components.schemas.SummarizeRequest.properties.used_model.enum;
    expect(offered).toEqual(['extractive', 'small']);
    const summarize = tools.result.tools.find(
      (tool: { name: string }) => tool.name === 'summarize_video',
    );
    expect(summarize.inputSchema.properties.used_model.enum).toEqual(offered);
    // The page's models, as its shell names them.
    const meta = /<meta name="tubesum-models" content="([^"]*)">/.exec(page)?.[1] ?? '';
    expect(JSON.parse(meta.replaceAll('&quot;', '"'))).toEqual(offered);
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as Json).allowed_models).toEqual(offered);
  });

  it('serves every route, and answers 503 server-misconfigured only for the model left out', async () => {
    const docs = await get('/docs');
    const summary = await post('/summarize', { video_url: VIDEO, used_model: 'extractive' });
    const history = await get('/summaries');
    const answer = await post('/ask', {
      video_url: VIDEO,
      used_model: 'extractive',
      question: 'What is shown?',
    });
    const leftOut = await post('/summarize', { video_url: VIDEO, used_model: 'cramped' });
    const asked = await post('/ask', { video_url: VIDEO, used_model: 'cramped', question: 'Why?' });

    expect(docs.status).toBe(200);
    expect(summary.status).toBe(200);
    expect(history.status).toBe(200);
    expect(answer.status).toBe(200);
    for (const response of [leftOut, asked]) {
      expect(response.status).toBe(503);
      expect(((await response.json()) as Json).type).toBe(
        'urn:tubesum:problem:server-misconfigured',
      );
    }
    expect(output).not.toMatch(/"status":500|handler crashed/);
  });
});
