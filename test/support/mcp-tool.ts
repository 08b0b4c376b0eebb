// A tool of `/mcp` called as an agent calls it: the official MCP SDK client over Streamable HTTP,
// with an API key made for the user (as Claude Code or Cursor send one).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiKeyOf } from './api-keys';
import type { Contract } from './contract';
import type { TestHost } from './host';

/** The tools /mcp lists, in their order. */
export const MCP_TOOL_NAMES = [
  'summarize_video',
  'get_summary',
  'get_transcript',
  'ask_video',
  'summarize_collection',
  'get_collection',
  'ask_collection',
];

/**
 * The official client, connected to `baseUrl`'s /mcp with `credential` as its bearer token (none:
 * no Authorization header), every answer it gets checked against the OpenAPI document.
 */
export async function connectMcp(
  baseUrl: string,
  credential: string | undefined,
  contract: Contract,
  name = 'tubesum-test',
): Promise<Client> {
  const checkedFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    contract.check(init?.method ?? 'GET', new URL(url).pathname, {
      status: response.status,
      headers: response.headers,
      text: await response.clone().text(),
    });
    return response;
  };
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: credential ? { headers: { Authorization: `Bearer ${credential}` } } : {},
      fetch: checkedFetch,
    }),
  );
  return client;
}

/** What `name` answered to `args`, for the user of `token`. */
export async function callMcpTool(
  host: Pick<TestHost, 'request' | 'url'>,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const client = new Client({ name: 'tubesum-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${await apiKeyOf(host, token)}` } },
    }),
  );
  try {
    return await client.callTool({ name, arguments: args });
  } finally {
    await client.close();
  }
}
