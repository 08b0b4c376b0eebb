// A tool of `/mcp` called as an agent calls it: the official MCP SDK client over Streamable HTTP,
// with an API key made for the user (as Claude Code or Cursor send one).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiKeyOf } from './api-keys';
import type { TestHost } from './host';

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
