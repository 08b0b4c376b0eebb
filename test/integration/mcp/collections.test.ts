// The collection tools at POST /mcp, with the official MCP client over Streamable HTTP against
// the real local host (its queue, worker and collection driver), DynamoDB Local and the fake
// YouTube's recorded playlists (test/support/fake-browse.ts): summarize_collection reads a
// playlist and sends videos settled of videos as progress, its structuredContent is what
// GET /collections/{id} answers, get_collection of another account's id is that route's 404,
// and ask_collection answers with citations that open each video at its moment.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf } from '../../support/api-keys';
import { type Contract, fetchContract } from '../../support/contract';
import { FAKE_PLAYLISTS } from '../../support/fake-browse-scenarios';
import { connectMcp } from '../../support/mcp-tool';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';

// biome-ignore lint/suspicious/noExplicitAny: JSON as the tests read it
type Json = any;

/** The recorded course playlist of 14 videos. */
const PLAYLIST_URL = `https://www.youtube.com/playlist?list=${FAKE_PLAYLISTS.course}`;
/** Three videos, summarised offline: a collection the wait can see through on an idle machine. */
const INPUT = { url: PLAYLIST_URL, used_model: 'extractive', summary_length: 40, limit: 3 };

let env: SummarizeEnv;
let contract: Contract;
let key: string;
const clients: Client[] = [];
beforeAll(async () => {
  env = await startSummarizeEnv({ MCP_WAIT_MS: '20000' });
  // Every video of the playlist is served as the recorded one with captions.
  env.youtube.useScenario('normal');
  key = await apiKeyOf(env.host, env.token);
  contract = await fetchContract(env.host.url);
});
afterAll(() => env?.close());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(credential: string): Promise<Client> {
  const client = await connectMcp(env.host.url, credential, contract);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult & {
    structuredContent: Json;
  };

const textOf = (result: CallToolResult, block = 0) => {
  const content = result.content[block];
  return content?.type === 'text' ? content.text : '';
};

/** Calls get_collection until the collection has ended; its last answer. */
async function untilEnded(client: Client, id: string) {
  for (let tries = 0; tries < 120; tries++) {
    const result = await call(client, 'get_collection', { id });
    if (!['queued', 'running'].includes(result.structuredContent?.status)) return result;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`collection ${id} did not end`);
}

/** A collection of the course, summarised through summarize_collection (once per file). */
let made: Promise<{ result: Json; notified: Json[]; done: Json }> | undefined;
function courseCollection() {
  made ??= (async () => {
    const client = await connect(key);
    const notified: Json[] = [];
    const result = await client.callTool(
      { name: 'summarize_collection', arguments: INPUT },
      undefined,
      { onprogress: (progress) => notified.push(progress), timeout: 60_000 },
    );
    const done = await untilEnded(client, (result as Json).structuredContent.id);
    return { result, notified, done };
  })();
  return made;
}

describe('summarize_collection', () => {
  it('is listed with the schemas of POST /collections and GET /collections/{id}', async () => {
    const client = await connect(key);
    const schemas = (contract.document.components?.schemas ?? {}) as Json;

    const { tools } = await client.listTools();
    const byName: Json = Object.fromEntries(tools.map((tool) => [tool.name, tool]));

    const summarize = byName.summarize_collection;
    expect(Object.keys(summarize.inputSchema.properties)).toEqual(
      Object.keys(schemas.CollectionRequest.properties),
    );
    expect(summarize.outputSchema.type).toBe('object');
    expect(Object.keys(summarize.outputSchema.properties)).toEqual(
      Object.keys(schemas.Collection.properties),
    );
    expect(byName.get_collection.inputSchema).toMatchObject({ required: ['id'] });
    expect(byName.ask_collection.inputSchema).toMatchObject({ required: ['id', 'question'] });
    expect(Object.keys(byName.ask_collection.outputSchema.properties)).toEqual(
      Object.keys(schemas.CollectionAskResponse.properties),
    );
  });

  it('summarises the playlist, sending videos settled of videos as progress, and answers what GET /collections/{id} answers', async () => {
    const { result, notified, done } = await courseCollection();
    const { id } = result.structuredContent;
    const rest = await env.host.request('GET', `/collections/${id}`, { token: env.token });

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      kind: 'playlist',
      progress: { total: 3 },
      request: { used_model: 'extractive', summary_length: 40, limit: 3 },
      more: true,
    });
    // The Markdown first, then the JSON.
    expect(textOf(result)).toContain('## Videos');
    expect(JSON.parse(textOf(result, 1))).toEqual(result.structuredContent);
    expect(notified.length).toBeGreaterThan(0);
    const progress = notified.map((n) => n.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
    for (const n of notified) expect(n.total).toBe(3);
    // Ended: every video summarised, and the overview made of them.
    expect(done.structuredContent.status).toBe('done');
    expect(rest.status).toBe(200);
    expect(done.structuredContent).toEqual(rest.body);
    expect(textOf(done)).toContain('## Overview');
    for (const video of done.structuredContent.videos) {
      expect(video.status).toBe('done');
      expect(textOf(done)).toContain(`](${video.url}): done`);
    }
  });
});

describe('get_collection', () => {
  it('answers another account’s collection, or a made-up id, with the 404 GET /collections/{id} answers', async () => {
    const { result } = await courseCollection();
    const { id } = result.structuredContent;
    const other = await env.host.registerAndLogin();
    const theirs = await connect(await apiKeyOf(env.host, other.token));

    const refused = await call(theirs, 'get_collection', { id });
    const madeUp = await call(theirs, 'get_collection', { id: 'A'.repeat(22) });
    const rest = await env.host.request('GET', `/collections/${id}`, { token: other.token });

    expect(rest.status).toBe(404);
    const problem = (r: CallToolResult) => ({ ...JSON.parse(textOf(r, 1)), request_id: undefined });
    for (const answer of [refused, madeUp]) {
      expect(answer.isError).toBe(true);
      expect(answer).not.toHaveProperty('structuredContent');
      expect(problem(answer)).toEqual({ ...rest.body, request_id: undefined });
    }
  });
});

describe('ask_collection', () => {
  it('answers a question across the videos with citations that name each video, its moment and a link', async () => {
    const { done } = await courseCollection();
    const { id, videos } = done.structuredContent;
    const client = await connect(key);
    const question = 'Is this the original transcript?';

    const result = await call(client, 'ask_collection', { id, question });
    const rest = await env.host.request('POST', `/collections/${id}/ask`, {
      json: { question },
      token: env.token,
    });

    expect(result.isError).toBeFalsy();
    const { citations } = result.structuredContent;
    expect(citations.length).toBeGreaterThan(0);
    const ids = videos.map((video: Json) => video.video_id);
    for (const citation of citations) {
      expect(ids).toContain(citation.video_id);
      expect(citation.url).toMatch(
        new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${citation.video_id}&t=\\d+s$`),
      );
      expect(textOf(result)).toContain(`](${citation.url})`);
    }
    // The same answer: the REST request was answered from the cache the tool's call filled.
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      ...result.structuredContent,
      metadata: {
        ...result.structuredContent.metadata,
        cached: true,
        elapsed_ms: rest.body.metadata.elapsed_ms,
      },
    });
  });
});
