// One model entry whose window is too small for any summary, as deployed: the Lambda entry
// points built from an environment whose OPENAI_MODELS names it. That model answers 503
// server-misconfigured (and its line is logged once per function, when it starts); every
// route that does not use it works, and none answers 500.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiKeyOf } from '../../support/api-keys';
import { FAKE_VIDEO_IDS, type FakeYouTube, startFakeYouTube } from '../../support/fake-youtube';
import { startTestHost, TEST_SECRET, type TestHost } from '../../support/host';
import { invokeInChild, type Reply } from '../../support/lambda-replies';
import { type OpenAiStub, startOpenAiStub } from '../../support/openai-stub';
import { type SqsStub, startSqsStub } from '../../support/sqs-stub';

let replies = new Map<string, Reply>();
let logs: Record<string, unknown>[] = [];
let host: TestHost;
let youtube: FakeYouTube;
let sqs: SqsStub;
let openai: OpenAiStub;

beforeAll(async () => {
  // The table and a user (the host makes them); YouTube, the model server and the job queue.
  host = await startTestHost();
  const { token } = await host.registerAndLogin();
  // /mcp takes API keys (and its own OAuth tokens), not login tokens.
  const key = await apiKeyOf(host, token);
  youtube = await startFakeYouTube();
  sqs = await startSqsStub();
  openai = await startOpenAiStub();
  ({ replies, logs } = await invokeInChild('test/support/invoke-models.ts', {
    JWT_SECRET: TEST_SECRET,
    TEST_TOKEN: token,
    TEST_MCP_TOKEN: key,
    TEST_VIDEO_ID: FAKE_VIDEO_IDS.normal,
    AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    AWS_REGION: 'us-east-1',
    TABLE_NAME: host.config.TABLE_NAME,
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_API_BASE_URL: youtube.baseUrl,
    JOB_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/tubesum-jobs',
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    OPENAI_BASE_URL: openai.baseUrl,
    // 700 tokens cannot hold any summary's prompt; 2,048 can.
    OPENAI_MODELS: 'cramped@700,small@2048',
    AWS_LAMBDA_MAX_CONCURRENCY: '',
  }));
}, 90_000);
afterAll(async () => {
  await openai?.close();
  await sqs?.close();
  await youtube?.close();
  await host?.close();
});

const bodyOf = (name: string) => JSON.parse(replies.get(name)?.body ?? '{}');

describe('a deployment whose OPENAI_MODELS names a model with a window too small', () => {
  it('answers 503 server-misconfigured for that model, saying which models are usable', () => {
    for (const name of ['summarize-left-out', 'summarize-left-out-again', 'ask-left-out']) {
      expect(replies.get(name)?.statusCode, name).toBe(503);
      expect(bodyOf(name)).toMatchObject({
        type: 'urn:tubesum:problem:server-misconfigured',
        detail: expect.stringContaining('"cramped" is misconfigured'),
        allowed_models: [
          'extractive',
          'nova-micro',
          'nova-lite',
          'nova-pro',
          'claude-haiku',
          'claude-sonnet',
          'small',
        ],
      });
    }
    const tool = bodyOf('mcp-left-out').result;
    expect(tool.isError).toBe(true);
    expect(tool.content.at(-1).text).toContain('urn:tubesum:problem:server-misconfigured');
  });

  it('serves every route that does not use it', () => {
    expect(replies.get('docs-openapi')?.statusCode).toBe(200);
    expect(replies.get('docs-page')?.statusCode).toBe(200);
    const usedModel =
      bodyOf('docs-openapi').components.schemas.SummarizeRequest.properties.used_model;
    expect(usedModel.enum).toContain('small');
    expect(usedModel.enum).not.toContain('cramped');
    expect(replies.get('summarize-extractive')?.statusCode).toBe(202);
    expect(replies.get('summarize-small')?.statusCode).toBe(202);
    expect(sqs.sent).toHaveLength(2);
    expect(replies.get('summaries-list')?.statusCode).toBe(200);
    expect(replies.get('ask-extractive')?.statusCode).toBe(200);
    expect(replies.get('mcp-list')?.statusCode).toBe(200);
    const tools = bodyOf('mcp-list').result.tools;
    const enumOf = tools.find((tool: { name: string }) => tool.name === 'summarize_video')
      .inputSchema.properties.used_model.enum;
    expect(enumOf).toEqual(usedModel.enum);
    // Nothing else failed: the model left out is the only 4xx or 5xx.
    const failed = [...replies].filter(
      ([name, reply]) => reply.statusCode >= 400 && !name.includes('-left-out'),
    );
    expect(failed.map(([name, reply]) => `${name}: ${reply.statusCode}`)).toEqual([]);
  });

  it('logs why the model is left out once per function, at its start, naming OPENAI_MODELS', () => {
    const told = logs.filter((line) => String(line.message).includes('"cramped@700" is left out'));
    const firstOfEach = new Map<string, string>();
    for (const [name, reply] of replies) {
      const fn = name.split('-')[0] ?? name;
      if (!firstOfEach.has(fn)) firstOfEach.set(fn, reply.requestId);
    }

    expect(told.length).toBeGreaterThan(0);
    expect(told.every((line) => line.level === 'ERROR')).toBe(true);
    expect(told[0]?.message).toMatch(
      /^invalid configuration: OPENAI_MODELS: "cramped@700" is left out/,
    );
    // Each line at the first request of a function, and at most one per function.
    const ids = told.map((line) => line.request_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect([...firstOfEach.values()]).toContain(id);
    expect(ids).not.toContain(replies.get('summarize-left-out-again')?.requestId);
  });
});
