// What each scope lets an OAuth access token do at POST /mcp, with the official MCP client over
// Streamable HTTP against the real local host, its worker and the fake YouTube (docs/mcp.md
// "The tools"; docs/SECURITY.md "OAuth for /mcp"). summarize_video needs summaries:write and the
// other tools summaries:read; listing tools needs no scope, and an API key may do everything.
// A tool the token may not call is refused before the SDK reads the message, with HTTP 403 and
// MCP's step-up challenge (MCP authorization 2025-11-25, "Scope Challenge Handling" / "Runtime
// Insufficient Scope Errors": RFC 6750 3.1's error="insufficient_scope", the scope to ask for
// and resource_metadata); asked again, the person allows both and the app's new token works.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf } from '../../support/api-keys';
import { type Contract, fetchContract } from '../../support/contract';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { connectMcp, MCP_TOOL_NAMES } from '../../support/mcp-tool';
import {
  answer,
  authorizationParams,
  authorizeRequest,
  codeOf,
  connectApp,
  exchangeCode,
  pkcePair,
  requestIdOf,
} from '../../support/oauth';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';

const VIDEO = `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`;
const SUMMARIZE = { video_url: VIDEO, used_model: 'extractive', summary_length: 39 };
const BOTH = 'summaries:read summaries:write';

let env: SummarizeEnv;
let contract: Contract;
const clients: Client[] = [];
beforeAll(async () => {
  env = await startSummarizeEnv({ MCP_WAIT_MS: '8000' });
  contract = await fetchContract(env.host.url);
});
afterAll(() => env?.close());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The official client, connected to /mcp with `credential` as its bearer token. */
async function connect(credential: string): Promise<Client> {
  const client = await connectMcp(env.host.url, credential, contract, 'tubesum-scopes-test');
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** POST /mcp tools/call of `name`, by hand, with `credential`. */
const callByHand = (credential: string, name: string, args: Record<string, unknown>) =>
  env.host.request('POST', '/mcp', {
    token: credential,
    headers: { accept: 'application/json, text/event-stream' },
    json: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } },
  });

describe('a token with summaries:read only', () => {
  it('cannot slip summarize_video past the scope check inside a JSON-RPC batch: refused, nothing started', async () => {
    // The SDK's transport still takes a batch (an array of messages); the scope check reads one
    // message. The route takes a JSON object only, so a batch never reaches either.
    const app = await connectApp(env.host, env.token, { scope: 'summaries:read' });
    const before = await env.host.request('GET', '/summaries', { token: env.token });
    const message = (id: number, name: string, args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });

    const refused = await env.host.request('POST', '/mcp', {
      token: app.access,
      headers: { accept: 'application/json, text/event-stream' },
      json: [
        message(1, 'get_transcript', { video_url: VIDEO, end_seconds: 30 }),
        message(2, 'summarize_video', SUMMARIZE),
      ],
    });
    const after = await env.host.request('GET', '/summaries', { token: env.token });

    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.type).toBe('urn:tubesum:problem:malformed-request');
    expect(after.body.items).toEqual(before.body.items);
  });

  it('lists every tool and reads a transcript', async () => {
    const app = await connectApp(env.host, env.token, { scope: 'summaries:read' });
    const client = await connect(app.access);

    const { tools } = await client.listTools();
    const transcript = await call(client, 'get_transcript', { video_url: VIDEO, end_seconds: 30 });

    expect(app.tokens.body.scope).toBe('summaries:read');
    expect(tools.map((tool) => tool.name)).toEqual(MCP_TOOL_NAMES);
    expect(transcript.isError).toBeFalsy();
  });

  it('gets 403 insufficient_scope for summarize_video, naming both scopes and the resource metadata', async () => {
    const app = await connectApp(env.host, env.token, { scope: 'summaries:read' });
    const before = await env.host.request('GET', '/summaries', { token: env.token });

    const refused = await callByHand(app.access, 'summarize_video', SUMMARIZE);
    const client = await connect(app.access);
    const bySdk = call(client, 'summarize_video', SUMMARIZE);

    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="${BOTH}", resource_metadata="${env.host.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({
      type: 'urn:tubesum:problem:insufficient-scope',
      status: 403,
      detail: expect.stringContaining('summaries:write'),
    });
    // The official client without an OAuth provider cannot ask the person: it throws the 403.
    await expect(bySdk).rejects.toMatchObject({ code: 403 });
    // Nothing was started.
    const after = await env.host.request('GET', '/summaries', { token: env.token });
    expect(after.body.items.length).toBe(before.body.items.length);
  });

  it('works with the token the person gives when the app asks again, for both scopes', async () => {
    const app = await connectApp(env.host, env.token, { scope: 'summaries:read' });
    expect((await callByHand(app.access, 'summarize_video', SUMMARIZE)).status).toBe(403);

    // The step-up: the same client, a new authorization request for the challenge's scope.
    const { verifier, challenge } = pkcePair();
    const id = requestIdOf(
      await authorizeRequest(
        env.host,
        authorizationParams(env.host, app.clientId, challenge, { scope: BOTH }),
      ),
    );
    const shown = await env.host.request('GET', `/oauth/requests/${id}`, { token: env.token });
    const code = codeOf(await answer(env.host, id, env.token, 'allow'));
    const wider = await exchangeCode(env.host, app.clientId, code, verifier);
    const summary = await call(
      await connect(wider.body.access_token),
      'summarize_video',
      SUMMARIZE,
    );

    expect(shown.body.scopes.map((scope: { scope: string }) => scope.scope)).toEqual([
      'summaries:read',
      'summaries:write',
    ]);
    expect(wider.body.scope).toBe(BOTH);
    expect(summary.isError).toBeFalsy();
  });
});

describe('a token with summaries:write only', () => {
  it('summarises, and gets 403 insufficient_scope for the reading tools', async () => {
    const app = await connectApp(env.host, env.token, { scope: 'summaries:write' });

    const summarized = await callByHand(app.access, 'summarize_video', SUMMARIZE);
    const transcript = await callByHand(app.access, 'get_transcript', { video_url: VIDEO });

    expect(summarized.status).toBe(200);
    expect(transcript.status).toBe(403);
    expect(transcript.headers.get('www-authenticate')).toContain(`scope="${BOTH}"`);
  });
});

describe('the collection tools', () => {
  it('need summaries:write to summarize a collection, summaries:read to read or ask one', async () => {
    const reader = await connectApp(env.host, env.token, { scope: 'summaries:read' });
    const writer = await connectApp(env.host, env.token, { scope: 'summaries:write' });
    const collection = { url: 'https://www.youtube.com/playlist?list=PLBCF2DAC6FFB574DE' };
    const id = { id: 'A'.repeat(22) };
    const ask = { ...id, question: 'What is it about?' };

    const summarized = await callByHand(reader.access, 'summarize_collection', collection);
    const read = await callByHand(reader.access, 'get_collection', id);
    const asked = await callByHand(reader.access, 'ask_collection', ask);
    const readByWriter = await callByHand(writer.access, 'get_collection', id);
    const askedByWriter = await callByHand(writer.access, 'ask_collection', ask);

    expect(summarized.status).toBe(403);
    expect(summarized.body.detail).toContain(
      'summarize_collection needs the scope summaries:write',
    );
    // Past the scope check: the tool's own 404 for a collection that is not the caller's.
    for (const allowed of [read, asked]) {
      expect(allowed.status).toBe(200);
      expect(allowed.body.result).toMatchObject({ isError: true });
      expect(allowed.body.result.content[0].text).toContain('No such collection.');
    }
    for (const refused of [readByWriter, askedByWriter]) {
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toContain(`scope="${BOTH}"`);
    }
  });
});

describe('full access', () => {
  it('is what a token gets when its app asked for no scope', async () => {
    const app = await connectApp(env.host, env.token);

    const summary = await call(await connect(app.access), 'summarize_video', SUMMARIZE);

    expect(app.tokens.body.scope).toBe(BOTH);
    expect(summary.isError).toBeFalsy();
  });

  it('is what an API key has', async () => {
    const key = await apiKeyOf(env.host, env.token);
    const client = await connect(key);

    const summary = await call(client, 'summarize_video', SUMMARIZE);
    const transcript = await call(client, 'get_transcript', { video_url: VIDEO, end_seconds: 30 });

    expect(summary.isError).toBeFalsy();
    expect(transcript.isError).toBeFalsy();
  });
});
