// What an MCP host does at the HTTP level, given its profile (test/support/mcp-hosts.ts): the
// authorization URL it builds (PKCE S256, state, resource, scope), its requests to the registration
// and token endpoints from its own address, the scope it reads from /mcp's 401, and its MCP calls,
// raw (claude.ai's and ChatGPT's servers, VS Code's own client) or through the official SDK's
// client (Claude Code, Cursor).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FAKE_VIDEO_IDS } from './fake-youtube';
import type { TestHost, TestResponse } from './host';
import type { HostProfile } from './mcp-hosts';
import { pkcePair } from './oauth';

/** A port nothing listens on: a loopback redirect URI, answered in the browser. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address ? address.port : 0;
}

export interface Authorization {
  url: string;
  state: string;
  verifier: string;
  redirectUri: string;
}

/** The authorization URL a host builds (PKCE S256, state, resource, scope), and its verifier. */
export function authorizationFor(
  host: TestHost,
  clientId: string,
  redirectUri: string,
  scope: string,
): Authorization {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(16).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    scope,
    resource: `${host.url}/mcp`,
  });
  return { url: `${host.url}/oauth/authorize?${query}`, state, verifier, redirectUri };
}

/** POST /oauth/register with a host's body, as it sends it. */
export const register = (host: TestHost, as: HostProfile, body: object): Promise<TestResponse> =>
  host.request('POST', '/oauth/register', { json: body, from: as.from, headers: as.oauth });

/** POST /oauth/token with a form, as the host sends it. */
export const tokenRequest = (
  host: TestHost,
  as: HostProfile,
  form: Record<string, string>,
): Promise<TestResponse> =>
  host.request('POST', '/oauth/token', { form, from: as.from, headers: as.oauth });

/** The exchange of the code `back` carries, with the host's client authentication (`more`). */
export const exchange = (
  host: TestHost,
  as: HostProfile,
  auth: Authorization,
  back: URL,
  more: Record<string, string>,
): Promise<TestResponse> =>
  tokenRequest(host, as, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code') ?? '',
    redirect_uri: auth.redirectUri,
    code_verifier: auth.verifier,
    ...more,
  });

const ACCEPT = { accept: 'application/json, text/event-stream' };

/** The scope /mcp's 401 asks for, as an MCP client reads it from WWW-Authenticate. */
export async function challengedScope(host: TestHost): Promise<string> {
  const refused = await host.request('POST', '/mcp', {
    json: { jsonrpc: '2.0', id: 0, method: 'tools/list' },
    headers: ACCEPT,
  });
  return /scope="([^"]*)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1] ?? '';
}

type Transcript = CallToolResult & { structuredContent?: { segments?: unknown[] } };

export interface ToolsUsed {
  names: string[];
  transcript: Transcript;
  /** The HTTP status of each request to /mcp (raw clients only). */
  statuses: number[];
}

const TRANSCRIPT_CALL = {
  name: 'get_transcript',
  arguments: { video_url: FAKE_VIDEO_IDS.normal, end_seconds: 30 },
};

/**
 * A host's own MCP client over plain HTTP: initialize, the initialized notification, tools/list
 * and a get_transcript call, each with the access token and the host's headers.
 */
async function rawTools(host: TestHost, as: HostProfile, access: string): Promise<ToolsUsed> {
  const statuses: number[] = [];
  let version: Record<string, string> = {};
  const send = async (message: object) => {
    const response = await host.request('POST', '/mcp', {
      token: access,
      json: { jsonrpc: '2.0', ...message },
      headers: { ...ACCEPT, ...as.mcp, ...version },
    });
    statuses.push(response.status);
    return response.body?.result;
  };
  const init = await send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: as.client },
  });
  version = { 'mcp-protocol-version': init?.protocolVersion };
  await send({ method: 'notifications/initialized' });
  const listed = await send({ id: 2, method: 'tools/list' });
  const transcript = await send({ id: 3, method: 'tools/call', params: TRANSCRIPT_CALL });
  return {
    names: (listed?.tools ?? []).map((tool: { name: string }) => tool.name),
    transcript,
    statuses,
  };
}

/** An MCP host built on the official SDK: its client with the access token as a header. */
async function sdkTools(host: TestHost, as: HostProfile, access: string): Promise<ToolsUsed> {
  const client = new Client(as.client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${access}` } },
    }),
  );
  try {
    const { tools } = await client.listTools();
    const transcript = (await client.callTool(TRANSCRIPT_CALL)) as Transcript;
    return { names: tools.map((tool) => tool.name), transcript, statuses: [] };
  } finally {
    await client.close();
  }
}

/** The host lists the tools and reads a transcript through one, with its MCP client. */
export const useTools = (host: TestHost, as: HostProfile, access: string): Promise<ToolsUsed> =>
  as.sdk ? sdkTools(host, as, access) : rawTools(host, as, access);
