// POST /mcp with the official MCP client over Streamable HTTP, against the real local host (its
// queue and worker), DynamoDB Local, the fake YouTube and the model stubs: the tools' schemas
// are the REST routes' own, each tool's structuredContent is what the REST route answers for
// the same input, a failure is a tool error and never a crash, and nothing works without a
// credential (docs/SECURITY.md, "MCP"). Every response the client gets is checked against the
// OpenAPI document, as host.request checks the others.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TRANSCRIPT_PAGE_CHARACTERS } from '../../../lib/mcp/schemas';
import { normaliseCaptionText } from '../../../lib/youtube/captions/transcript';
import { apiKeyOf, expireApiKey, userIdOf } from '../../support/api-keys';
import { type Contract, fetchContract } from '../../support/contract';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { connectMcp, MCP_TOOL_NAMES } from '../../support/mcp-tool';
import {
  OPENAI_MODEL_NAME,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
  TINY_MODEL,
} from '../../support/summarize-env';
import { buildLongTranscript, loadSharedTranscript, toCaptionXml } from '../../support/transcripts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as the tests read it
type Json = any;

/**
 * How long summarize_video waits here before it answers with the job (MCP_WAIT_MS): long enough
 * for an offline summary on a loaded machine, whose tests expect the summary itself.
 */
const WAIT_MS = 8_000;
/** POST /summarize's wait (SUMMARIZE_WAIT_MS), longer: the tool must not take it for its own. */
const REST_WAIT_MS = 25_000;
const VIDEO = `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`;
const ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'curl', version: '1' },
  },
};

let env: SummarizeEnv;
let contract: Contract;
/** An API key of env.token's user: the MCP client's credential. */
let key: string;
const clients: Client[] = [];
beforeAll(async () => {
  env = await startSummarizeEnv({
    SUMMARIZE_WAIT_MS: String(REST_WAIT_MS),
    MCP_WAIT_MS: String(WAIT_MS),
  });
  // /mcp takes API keys and OAuth access tokens for it, not the REST API's login tokens.
  key = await apiKeyOf(env.host, env.token);
  contract = await fetchContract(env.host.url);
  // A fresh host's first summary loads the worker and the offline model's language model
  // (seconds on a loaded machine): made here, so the tests' own offline summaries fit in WAIT_MS
  // (they failed now and then, answered with a job, when one of them was the first).
  const warm = await env.host.request('POST', '/summarize', {
    json: { video_url: VIDEO, used_model: 'extractive', summary_length: 39 },
    token: env.token,
    headers: { prefer: 'respond-async' },
  });
  await pollJob(env.host, env.token, warm.body.id);
});
afterAll(() => env?.close());
beforeEach(() => {
  env.youtube.reset();
  env.youtube.setEnglishTrack(undefined);
  env.youtube.setVideoDetails(undefined);
  env.openai.reset();
  env.bedrock.reset();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The official client, connected to /mcp with `credential` as its bearer token. */
async function connect(credential: string | undefined): Promise<Client> {
  const client = await connectMcp(env.host.url, credential, contract);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult & {
    structuredContent: Json;
  };

/** The problem a tool error carries (its last text block), without its request id. */
function problemOf(result: CallToolResult): Json {
  const last = result.content.at(-1);
  const problem = JSON.parse(last?.type === 'text' ? last.text : '{}');
  return { ...problem, request_id: undefined };
}

const textOf = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');

const withoutId = (body: Json) => ({ ...body, request_id: undefined });

/** The user's newest job (a summary answered at once names its job nowhere else). */
async function newestJobId(token: string): Promise<string> {
  const history = await env.host.request('GET', '/summaries?limit=1', { token });
  return history.body.items[0].id;
}

describe('the tools', () => {
  it('are listed with the schemas of the REST routes they stand for', async () => {
    const client = await connect(key);
    const schemas = (contract.document.components?.schemas ?? {}) as Json;
    // The same schema, written where the document keeps its shared ones.
    const asInDocument = (schema: Json) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));

    const { tools } = await client.listTools();
    const byName: Json = Object.fromEntries(tools.map((tool) => [tool.name, tool]));

    expect(tools.map((tool) => tool.name)).toEqual(MCP_TOOL_NAMES);
    // summarize_video takes the body of POST /summarize (the document says defaults in words;
    // a tool keeps them as `default`), used_model as the deployment's models.
    const summarize = byName.summarize_video;
    const request = schemas.SummarizeRequest;
    expect(summarize.inputSchema.type).toBe('object');
    expect(Object.keys(summarize.inputSchema.properties)).toEqual(Object.keys(request.properties));
    expect(summarize.inputSchema.required).toEqual(request.required);
    expect(summarize.inputSchema.properties.video_url).toEqual(request.properties.video_url);
    expect(summarize.inputSchema.properties.used_model.enum).toEqual(
      request.properties.used_model.enum,
    );
    // ...and answers POST /summarize's 200 body or the job, the document's very schemas.
    expect(summarize.outputSchema).toMatchObject({
      type: 'object',
      anyOf: [{ $ref: '#/$defs/SummarizeResponse' }, { $ref: '#/$defs/SummaryJob' }],
    });
    expect(summarize.outputSchema).not.toHaveProperty('$schema');
    for (const [id, schema] of Object.entries(summarize.outputSchema.$defs)) {
      expect(asInDocument(schema), id).toEqual(schemas[id]);
    }
    // get_summary answers GET /summaries/{id}'s body.
    const { $defs: _, ...job } = byName.get_summary.outputSchema;
    expect(asInDocument(job)).toEqual(schemas.SummaryJob);
    expect(byName.get_summary.inputSchema).toMatchObject({ type: 'object', required: ['id'] });
    expect(byName.get_summary.annotations).toMatchObject({ readOnlyHint: true });
    // get_transcript takes the same video_url as POST /summarize, and a time range.
    const transcript = byName.get_transcript;
    expect(Object.keys(transcript.inputSchema.properties)).toEqual([
      'video_url',
      'language',
      'start_seconds',
      'end_seconds',
      'cursor',
    ]);
    expect(transcript.inputSchema.properties.video_url).toEqual(request.properties.video_url);
    expect(transcript.outputSchema.properties.segments.items).toEqual({
      $ref: '#/$defs/TranscriptSegment',
    });
  });

  it('answers summarize_video with the body POST /summarize answers for the same input', async () => {
    const client = await connect(key);
    const input = { video_url: VIDEO, used_model: 'extractive', summary_length: 40 };

    const result = await call(client, 'summarize_video', input);
    const rest = await env.host.request('POST', '/summarize', { json: input, token: env.token });

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.metadata.cached).toBe(false);
    expect(rest.status).toBe(200);
    // The same summary: the REST request was answered from the record the tool's call made.
    const { metadata } = result.structuredContent;
    expect(rest.body).toEqual({
      ...result.structuredContent,
      metadata: { ...metadata, cached: true, elapsed_ms: rest.body.metadata.elapsed_ms },
    });
    // MCP's advice to tools with an output schema: the same JSON as text, for older clients.
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('answers ask_video with the body POST /ask answers for the same input', async () => {
    const client = await connect(key);
    const input = { video_url: VIDEO, question: 'Is this the original transcript?' };

    const result = await call(client, 'ask_video', input);
    const rest = await env.host.request('POST', '/ask', { json: input, token: env.token });

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.metadata.cached).toBe(false);
    expect(result.structuredContent.citations.length).toBeGreaterThan(0);
    for (const citation of result.structuredContent.citations) {
      expect(citation.url).toMatch(new RegExp(`^${VIDEO.replace(/[.?]/g, '\\$&')}&t=\\d+s$`));
    }
    expect(rest.status).toBe(200);
    // The same answer: the REST request was answered from the cache the tool's call filled.
    const { metadata } = result.structuredContent;
    expect(rest.body).toEqual({
      ...result.structuredContent,
      metadata: { ...metadata, cached: true, elapsed_ms: rest.body.metadata.elapsed_ms },
    });
    // The tool takes POST /ask's body: a question over 500 characters is a tool error.
    const long = await call(client, 'ask_video', { ...input, question: 'x'.repeat(501) });
    expect(long.isError).toBe(true);
  });

  it('returns the chapters in the structured content of summarize_video and get_summary', async () => {
    const captions = buildLongTranscript(1_650).segments;
    env.youtube.setEnglishTrack(toCaptionXml(captions));
    env.youtube.setVideoDetails({
      description: 'A talk.\n0:00 Intro\n2:00 Kernels\n5:30 Pooling\n8:00 Training',
      lengthSeconds: 620,
    });
    const client = await connect(key);
    const input = { video_url: VIDEO, used_model: 'extractive', summary_length: 44 };

    const made = await call(client, 'summarize_video', input);
    const id = await newestJobId(env.token);
    const job = await call(client, 'get_summary', { id });

    expect(made.isError).toBeFalsy();
    const chapters = made.structuredContent.chapters;
    expect(
      chapters.map((chapter: Json) => [chapter.start_seconds, chapter.end_seconds, chapter.title]),
    ).toEqual([
      [0, 120, 'Intro'],
      [120, 330, 'Kernels'],
      [330, 480, 'Pooling'],
      [480, 620, 'Training'],
    ]);
    for (const chapter of chapters) {
      expect(chapter.summary.split(' ').length).toBeGreaterThanOrEqual(5);
      expect(chapter.url).toBe(`${VIDEO}&t=${chapter.start_seconds}s`);
    }
    expect(made.structuredContent.metadata.chapters_source).toBe('creator');
    expect(job.structuredContent.result.chapters).toEqual(chapters);
  });

  it('answers get_summary with the body GET /summaries/{id} answers', async () => {
    const client = await connect(key);
    await call(client, 'summarize_video', { video_url: VIDEO, summary_length: 41 });
    const id = await newestJobId(env.token);

    const result = await call(client, 'get_summary', { id });
    const rest = await env.host.request('GET', `/summaries/${id}`, { token: env.token });

    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual(rest.body);
    expect(result.structuredContent.status).toBe('done');
  });

  it('answers summarize_video with the job when the summary takes longer than the wait, then get_summary with the summary', async () => {
    // Well past the wait, so that the wait ends first even on a loaded machine.
    const modelMs = WAIT_MS + 4_000;
    env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: modelMs }]);
    const client = await connect(key);
    const input = { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: 60 };

    const first = await call(client, 'summarize_video', input);
    const job = first.structuredContent;
    let polled = first;
    for (let tries = 0; polled.structuredContent.status !== 'done' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      polled = await call(client, 'get_summary', { id: job.id });
    }
    const rest = await env.host.request('GET', `/summaries/${job.id}`, { token: env.token });

    // Answered at the end of the wait (kept under API Gateway's 30 s), not when the model was
    // done: with the job still queued or running.
    expect(first.isError).toBeFalsy();
    expect(job).toMatchObject({
      id: expect.any(String),
      status: expect.stringMatching(/^(queued|running)$/),
      result: null,
      request: { video_url: VIDEO, used_model: OPENAI_MODEL_NAME, summary_length: 60 },
    });
    expect(textOf(first)).toContain(`Call get_summary with {"id": "${job.id}"}`);
    expect(polled.structuredContent.status).toBe('done');
    expect(polled.structuredContent).toEqual(rest.body);
    expect(rest.body.result.metadata.model).toBe(OPENAI_MODEL_NAME);
  });

  it('sends progress notifications (parts done of parts total) to a client that gives a progressToken, and hands back the job when the summary outlasts MCP_WAIT_MS', async () => {
    env.youtube.setEnglishTrack(toCaptionXml(buildLongTranscript(30_000).segments));
    // Three model calls answer at once, the fourth well past the wait (the rest at once again):
    // the summary cannot be done before the wait ends, however loaded the machine, and some
    // parts are done by then.
    const slowMs = WAIT_MS + 6_000;
    const quick = { delayMs: 100 };
    env.bedrock.script(TINY_MODEL.modelId, [quick, quick, quick, { delayMs: slowMs }, quick]);
    const client = await connect(key);
    const notified: { progress: number; total?: number; message?: string }[] = [];

    const result = (await client.callTool(
      {
        name: 'summarize_video',
        arguments: { video_url: VIDEO, summary_length: 120, used_model: TINY_MODEL.name },
      },
      undefined,
      { onprogress: (progress) => notified.push(progress) },
    )) as CallToolResult & { structuredContent: Json };
    const id = await newestJobId(env.token);
    const job = await env.host.request('GET', `/summaries/${id}`, { token: env.token });

    expect(result.isError).toBeFalsy();
    // Handed back at the end of MCP_WAIT_MS, while the summary is still being made: the job.
    expect(result.structuredContent).toMatchObject({
      id,
      status: expect.stringMatching(/^(queued|running)$/),
      result: null,
    });
    expect(textOf(result)).toContain(`Call get_summary with {"id": "${id}"}`);
    expect(notified.length).toBeGreaterThan(1);
    const progress = notified.map((n) => n.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
    const total = notified.find((n) => n.total !== undefined)?.total ?? 0;
    expect(total).toBeGreaterThan(1);
    expect(progress.at(-1)).toBeGreaterThan(0);
    expect(progress.at(-1)).toBeLessThan(total);
    expect(notified.at(-1)?.message).toMatch(/^Summarising the parts: \d+ of \d+ parts$/);
    expect(job.body.status).toMatch(/^(queued|running)$/);
    await pollJob(env.host, env.token, id, { timeoutMs: slowMs + 30_000 });
  });

  it('answers a tools/call without a progressToken as JSON, with one as an event stream', async () => {
    const asked = (meta: Json) =>
      env.host.request('POST', '/mcp', {
        token: key,
        headers: { accept: ACCEPT },
        json: {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'get_summary', arguments: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, ...meta },
        },
      });

    const plain = await asked({});
    const withToken = await asked({ _meta: { progressToken: 'p-1' } });
    // Arguments that are not an object, with a progressToken: still the tool's 422, streamed.
    const badWithToken = await asked({ arguments: [], _meta: { progressToken: 'p-2' } });

    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(withToken.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(withToken.text).toContain('"id":3');
    expect(badWithToken.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const streamed = JSON.parse(/^data: (.*)$/m.exec(badWithToken.text)?.[1] ?? '{}');
    expect(streamed).toMatchObject({ id: 3, result: { isError: true } });
    expect(problemOf(streamed.result)).toMatchObject({
      status: 422,
      errors: [{ field: 'arguments', message: 'Use an object.' }],
    });
  });

  it('answers get_summary of another user’s job, or a made-up id, with the 404 GET /summaries/{id} answers', async () => {
    const mine = await connect(key);
    await call(mine, 'summarize_video', { video_url: VIDEO, summary_length: 42 });
    const id = await newestJobId(env.token);
    const other = await env.host.registerAndLogin();
    const theirs = await connect(await apiKeyOf(env.host, other.token));

    const result = await call(theirs, 'get_summary', { id });
    const madeUp = await call(theirs, 'get_summary', { id: 'AAAAAAAAAAAAAAAAAAAAAA' });
    const rest = await env.host.request('GET', `/summaries/${id}`, { token: other.token });

    expect(rest.status).toBe(404);
    expect(result.isError).toBe(true);
    expect(problemOf(result)).toEqual(withoutId(rest.body));
    expect(problemOf(madeUp)).toEqual(withoutId(rest.body));
    expect(textOf(result)).toContain('No such summary job.');
    expect(result).not.toHaveProperty('structuredContent');
  });
});

describe('get_transcript', () => {
  const shared = loadSharedTranscript();
  // The captions as the service cleans them for a summary too (no `[offscreen]`-style cues).
  const asSegments = (segments: typeof shared.segments) =>
    segments
      .map((segment) => ({
        start_seconds: segment.offsetMs / 1000,
        text: normaliseCaptionText(segment.text),
      }))
      .filter((segment) => segment.text !== '');
  beforeEach(() => {
    env.youtube.setEnglishTrack(toCaptionXml(shared.segments));
  });

  it('gives every caption with the time it starts when no range is asked for', async () => {
    const client = await connect(key);

    const first = await call(client, 'get_transcript', { video_url: VIDEO });
    const pages = [first.structuredContent];
    while (pages.at(-1)?.next_cursor && pages.length < 10) {
      const cursor = pages.at(-1)?.next_cursor;
      pages.push(
        (await call(client, 'get_transcript', { video_url: VIDEO, cursor })).structuredContent,
      );
    }
    const last = pages.at(-1);

    expect(first.isError).toBeFalsy();
    expect({ ...last, segments: pages.flatMap((page) => page.segments) }).toEqual({
      video_id: FAKE_VIDEO_IDS.normal,
      title: 'Surface Go Review - It’s Awesome',
      duration_seconds: 316,
      language: 'en',
      auto_generated: false,
      source: 'captions',
      segments: asSegments(shared.segments),
      truncated: false,
      next_start_seconds: null,
      next_cursor: null,
    });
  });

  it('gives only the captions that start between start_seconds and end_seconds', async () => {
    const client = await connect(key);
    const expected = shared.segments.filter(
      (segment) => segment.offsetMs >= 60_000 && segment.offsetMs < 120_000,
    );

    const result = await call(client, 'get_transcript', {
      video_url: FAKE_VIDEO_IDS.normal,
      start_seconds: 60,
      end_seconds: 120,
    });

    expect(expected.length).toBeGreaterThan(10);
    expect(result.structuredContent.segments).toEqual(asSegments(expected));
    expect(result.structuredContent.truncated).toBe(false);
  });

  it('reads a long transcript in pages (next_cursor) that join into the whole, each result under 25,000 characters', async () => {
    const long = buildLongTranscript(10_000);
    env.youtube.setEnglishTrack(toCaptionXml(long.segments));
    const client = await connect(key);

    const pages: Json[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const result = await call(client, 'get_transcript', {
        video_url: VIDEO,
        ...(cursor === undefined ? {} : { cursor }),
      });
      pages.push(result.structuredContent);
      sizes.push(textOf(result).length);
      cursor = result.structuredContent.next_cursor ?? undefined;
    } while (cursor !== undefined && pages.length < 20);

    expect(pages.length).toBeGreaterThan(1);
    expect(pages.map((page) => page.truncated)).toEqual([...pages.slice(1).map(() => true), false]);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(TRANSCRIPT_PAGE_CHARACTERS);
    expect(TRANSCRIPT_PAGE_CHARACTERS).toBeLessThan(25_000);
    expect(pages.flatMap((page) => page.segments)).toEqual(asSegments(long.segments));
  });

  it('answers a video without captions with the 422 POST /summarize answers', async () => {
    const client = await connect(key);
    const video = FAKE_VIDEO_IDS.disabled;

    const result = await call(client, 'get_transcript', { video_url: video });
    const rest = await env.host.request('POST', '/summarize', {
      json: { video_url: video, summary_length: 43 },
      token: env.token,
    });

    expect(rest.status).toBe(422);
    expect(result.isError).toBe(true);
    expect(problemOf(result)).toEqual(withoutId(rest.body));
  });
});

describe('bad arguments', () => {
  it('are tool errors with the 422 problem POST /summarize answers, and no request to YouTube', async () => {
    const client = await connect(key);
    const cases = [
      { video_url: 'http://169.254.169.254/latest/meta-data/' },
      { video_url: 'https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ' },
      { video_url: VIDEO, summary_length: 'long' },
      { video_url: VIDEO, summary_length: 10, include_key_points: 'yes' },
      { summary_length: 100 },
    ];

    for (const input of cases) {
      const result = await call(client, 'summarize_video', input);
      const rest = await env.host.request('POST', '/summarize', { json: input, token: env.token });

      expect(rest.status, JSON.stringify(input)).toBe(422);
      expect(result.isError, JSON.stringify(input)).toBe(true);
      expect(problemOf(result), JSON.stringify(input)).toEqual(withoutId(rest.body));
    }
    expect(env.youtube.requests).toBe(0);
  });

  it('of get_transcript and get_summary are tool errors naming the field', async () => {
    const client = await connect(key);

    const backwards = await call(client, 'get_transcript', {
      video_url: VIDEO,
      start_seconds: 90,
      end_seconds: 30,
    });
    const typed = await call(client, 'get_transcript', { video_url: VIDEO, start_seconds: 'ten' });
    const noId = await call(client, 'get_summary', {});

    expect(backwards.isError).toBe(true);
    expect(problemOf(backwards).errors).toEqual([
      { field: 'end_seconds', message: 'Use an end_seconds greater than start_seconds.' },
    ]);
    expect(textOf(backwards)).toContain(
      'end_seconds: Use an end_seconds greater than start_seconds.',
    );
    expect(problemOf(typed).errors).toEqual([
      { field: 'start_seconds', message: expect.any(String) },
    ]);
    expect(problemOf(noId).errors).toEqual([{ field: 'id', message: 'Fill in this field.' }]);
    expect(env.youtube.requests).toBe(0);
    // The endpoint goes on answering.
    expect((await client.listTools()).tools).toHaveLength(MCP_TOOL_NAMES.length);
  });

  it('that are not an object (null, a list, a string) are tool errors in the words of a 422, as any bad argument', async () => {
    const client = await connect(key);
    // What POST /summarize answers a bad field (a body that is no object is a 400 there).
    const rest = await env.host.request('POST', '/summarize', {
      json: { summary_length: 100 },
      token: env.token,
    });
    const inputs = [null, [], [{ video_url: VIDEO }], 'video', 7];

    for (const input of inputs) {
      // The official client sends what it is given; a raw request says the same (below).
      const result = (await client.callTool({
        name: 'summarize_video',
        arguments: input as unknown as Record<string, unknown>,
      })) as CallToolResult;

      expect(result.isError, JSON.stringify(input)).toBe(true);
      expect(problemOf(result), JSON.stringify(input)).toEqual({
        ...withoutId(rest.body),
        errors: [
          // zod's "Invalid input: expected object, received …", said as what to do.
          { field: 'arguments', message: 'Use an object.' },
        ],
      });
      expect(textOf(result), JSON.stringify(input)).toContain(
        'Validation failed (422): The request has invalid fields.\narguments: Use an object.',
      );
    }
    expect(env.youtube.requests).toBe(0);
    // The endpoint goes on answering.
    expect((await client.listTools()).tools).toHaveLength(MCP_TOOL_NAMES.length);
  });

  it('that are null answer a raw JSON-RPC tools/call with a tool result, not a JSON-RPC error', async () => {
    const response = await env.host.request('POST', '/mcp', {
      json: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'ask_video', arguments: null },
      },
      token: key,
      headers: { accept: ACCEPT, 'mcp-protocol-version': '2025-06-18' },
    });

    expect(response.status).toBe(200);
    expect(response.body.error).toBeUndefined();
    expect(response.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { isError: true } });
    expect(problemOf(response.body.result)).toMatchObject({
      status: 422,
      type: 'urn:tubesum:problem:validation-error',
      errors: [{ field: 'arguments', message: 'Use an object.' }],
    });
  });

  it('name an unknown tool in a JSON-RPC error', async () => {
    const client = await connect(key);

    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(
      /Unknown tool: delete_everything/,
    );
  });
});

describe('the endpoint', () => {
  it('answers without credentials with 401 and WWW-Authenticate: Bearer naming its resource metadata, and the client cannot connect', async () => {
    const response = await env.host.request('POST', '/mcp', {
      json: INITIALIZE,
      headers: { accept: ACCEPT },
    });

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="tubesum", resource_metadata="${env.host.url}/.well-known/oauth-protected-resource/mcp", scope="summaries:read summaries:write"`,
    );
    expect(response.body.type).toBe('urn:tubesum:problem:invalid-token');
    await expect(connect(undefined)).rejects.toMatchObject({ code: 401 });
    await expect(connect(`tsk_${'A'.repeat(43)}`)).rejects.toMatchObject({ code: 401 });
  });

  it('takes an API key as the bearer token, as a token', async () => {
    const created = await env.host.request('POST', '/api-keys', {
      json: { name: 'mcp client' },
      token: env.token,
    });
    const client = await connect(created.body.key);

    const result = await call(client, 'summarize_video', { video_url: VIDEO, summary_length: 44 });
    const id = await newestJobId(env.token);
    const viaKey = await call(client, 'get_summary', { id });
    const keys = await env.host.request('GET', '/api-keys', { token: env.token });

    expect(result.isError).toBeFalsy();
    expect(viaKey.structuredContent).toMatchObject({ id, status: 'done' });
    expect(viaKey.structuredContent.result).toEqual(result.structuredContent);
    expect(keys.body.items[0].last_used_at).not.toBeNull();
  });

  it('refuses an expired API key with the 401 of an unknown key, and the client cannot connect', async () => {
    const made = (
      await env.host.request('POST', '/api-keys', {
        json: { name: 'expiring agent', expires_in_days: 7 },
        token: env.token,
      })
    ).body;
    const initialize = (credential: string) =>
      env.host.request('POST', '/mcp', {
        json: INITIALIZE,
        token: credential,
        headers: { accept: ACCEPT },
      });
    const before = await initialize(made.key);
    await expireApiKey(env.host.db, env.host.config.TABLE_NAME, {
      userId: userIdOf(env.token),
      ...made,
    });

    const expired = await initialize(made.key);
    const unknown = await initialize(`tsk_${'A'.repeat(43)}`);

    expect(before.status).toBe(200);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(unknown.headers.get('www-authenticate'));
    expect(withoutId(expired.body)).toEqual(withoutId(unknown.body));
    await expect(connect(made.key)).rejects.toMatchObject({ code: 401 });
  });

  it('answers GET and DELETE with 405 and Allow: POST (no sessions, no event streams)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await env.host.request(method, '/mcp', {
        token: env.token,
        headers: { accept: 'text/event-stream' },
      });

      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('POST');
      expect(response.body.type, method).toBe('urn:tubesum:problem:method-not-allowed');
    }
  });

  it('answers what the MCP SDK cannot read with 400, and a client that accepts no event stream with 406, as problems', async () => {
    const request = (options: { json?: unknown; body?: string; accept?: string }) =>
      env.host.request('POST', '/mcp', {
        ...options,
        token: key,
        headers: {
          'content-type': 'application/json',
          ...(options.accept ? { accept: options.accept } : {}),
        },
      });

    const notRpc = await request({ json: { hello: 'world' }, accept: ACCEPT });
    const notJson = await request({ body: '{"jsonrpc": "2.0",', accept: ACCEPT });
    const batch = await request({ json: [INITIALIZE], accept: ACCEPT });
    const noStream = await request({ json: INITIALIZE, accept: 'application/json' });

    expect(notRpc.status).toBe(400);
    expect(notRpc.body).toMatchObject({
      type: 'urn:tubesum:problem:malformed-request',
      detail: 'Parse error: Invalid JSON-RPC message',
    });
    expect(notJson.status).toBe(400);
    expect(batch.status).toBe(400);
    expect(noStream.status).toBe(406);
    expect(noStream.body.type).toBe('urn:tubesum:problem:not-acceptable');
  });

  it('answers a body over the limit with 413 before reading it as JSON-RPC', async () => {
    const response = await env.host.request('POST', '/mcp', {
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'summarize_video', arguments: { video_url: 'x'.repeat(20_000) } },
      },
      token: env.token,
      headers: { accept: ACCEPT },
    });

    expect(response.status).toBe(413);
  });
});

describe('get_transcript and the daily quota', () => {
  let quotaEnv: SummarizeEnv;
  beforeAll(async () => {
    quotaEnv = await startSummarizeEnv({
      SUMMARY_DAILY_QUOTA: '1',
      TRANSCRIPT_CACHE_TTL_SECONDS: '3600',
    });
  });
  afterAll(() => quotaEnv?.close());
  const quotaKey = async () =>
    (
      await quotaEnv.host.request('POST', '/api-keys', {
        json: { name: 'agent' },
        token: quotaEnv.token,
      })
    ).body.key as string;

  it('takes a unit for a transcript YouTube is asked for, none for one read from the cache', async () => {
    const client = new Client({ name: 'tubesum-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${quotaEnv.host.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${await quotaKey()}` } },
      }),
    );
    clients.push(client);

    const fetched = await call(client, 'get_transcript', { video_url: VIDEO });
    const askedYouTube = quotaEnv.youtube.requests;
    quotaEnv.youtube.reset();
    const cached = await call(client, 'get_transcript', { video_url: VIDEO, start_seconds: 5 });
    const another = await call(client, 'get_transcript', { video_url: VIDEO, language: 'de' });
    const summary = await quotaEnv.host.request('POST', '/summarize', {
      json: { video_url: VIDEO },
      token: quotaEnv.token,
    });

    expect(fetched.isError).toBeFalsy();
    expect(askedYouTube).toBeGreaterThan(0);
    expect(cached.isError).toBeFalsy();
    expect(quotaEnv.youtube.requests).toBe(0);
    // The day's one unit went to the first lookup.
    expect(summary.status).toBe(429);
    expect(another.isError).toBe(true);
    expect(problemOf(another)).toEqual(withoutId(summary.body));
    expect(textOf(another)).toMatch(/Try again in \d+ seconds\./);
  });
});
