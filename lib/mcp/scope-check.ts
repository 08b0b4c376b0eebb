// Scopes at POST /mcp: a tools/call is checked against the caller's scopes before the MCP SDK
// sees it, so that a tool the token may not call is an HTTP 403 with MCP's step-up challenge, not
// a JSON-RPC error: the status a client re-authorizes on. (The route takes one JSON object, so a
// JSON-RPC batch never gets past it to hide a call.)
import { InsufficientScopeError } from '../errors';
import { ALL_SCOPES_VALUE } from '../oauth/scopes';
import type { McpRequest } from './endpoint';
import type { ToolDef } from './tools';

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Refuses a tools/call of a tool whose scope the caller's token lacks (MCP's "Scope Challenge
 * Handling"). The challenge names every scope, not only the missing one, so that the token the
 * client gets by asking the person again can do all the old one could. Any other message
 * (initialize, tools/list, a notification, a tool that does not exist) needs no scope.
 * @throws InsufficientScopeError
 */
export function assertScope(
  request: Pick<McpRequest, 'body' | 'scopes' | 'resourceMetadata'>,
  tools: ReadonlyMap<string, ToolDef>,
): void {
  const { body, scopes } = request;
  if (scopes === undefined || !isObject(body) || body.method !== 'tools/call') return;
  const name = isObject(body.params) ? body.params.name : undefined;
  const tool = typeof name === 'string' ? tools.get(name) : undefined;
  if (!tool || scopes.includes(tool.scope)) return;
  throw new InsufficientScopeError(
    `${tool.name} needs the scope ${tool.scope}, which this app was not allowed: connect it again and allow ${ALL_SCOPES_VALUE}.`,
    { scope: ALL_SCOPES_VALUE, resourceMetadata: request.resourceMetadata },
  );
}
