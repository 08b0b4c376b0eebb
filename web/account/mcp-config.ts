// How an MCP client is pointed at this deployment with an API key.

/**
 * The MCP endpoint of the deployment the page came from: `mcp` beside the page, so a page served
 * under a base path (an API Gateway stage) names the right one.
 */
export function mcpEndpoint(pageUrl: string): string {
  return new URL('mcp', pageUrl).href;
}

/** Claude Code's command to add tubesum as an MCP server with this key (as the README and docs/mcp.md give it). */
export function claudeCodeCommand(endpoint: string, key: string): string {
  return `claude mcp add --transport http tubesum ${endpoint} --header "Authorization: Bearer ${key}"`;
}

/**
 * An `mcp.json` for Cursor and the like, reading the key from the environment (so the file can be
 * shared, or kept in a project, without the key).
 */
export function mcpJsonConfig(endpoint: string): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's placeholder, written as is
  const authorization = 'Bearer ${env:TUBESUM_API_KEY}';
  const server = { url: endpoint, headers: { Authorization: authorization } };
  return `${JSON.stringify({ mcpServers: { tubesum: server } }, null, 2)}\n`;
}
