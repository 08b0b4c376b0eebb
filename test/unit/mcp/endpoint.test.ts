// The MCP endpoint and the person's credential (docs/SECURITY.md, "OAuth for `/mcp`": no token
// passthrough): the SDK's transport, and so every tool, sees the request's protocol headers
// only, never `Authorization`; the credential stops at the route's authenticator.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../lib/accounts/users/store';
import type { Logger } from '../../../lib/logger';
import { createMcpEndpoint } from '../../../lib/mcp/endpoint';

const logger = (): Logger => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });
const CREDENTIAL = `tsk_${'S'.repeat(43)}`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('POST /mcp and the credential', () => {
  it('hands the SDK the protocol headers only, never Authorization or a cookie', async () => {
    const seen: Headers[] = [];
    const handle = WebStandardStreamableHTTPServerTransport.prototype.handleRequest;
    vi.spyOn(
      WebStandardStreamableHTTPServerTransport.prototype,
      'handleRequest',
    ).mockImplementation(function (
      this: WebStandardStreamableHTTPServerTransport,
      request,
      options,
    ) {
      seen.push(request.headers);
      return handle.call(this, request, options);
    });
    const endpoint = createMcpEndpoint([], { models: [], logger: logger() });

    const reply = await endpoint({
      user: { id: 'user-1' } as User,
      requestId: 'request-1',
      resourceMetadata: 'https://tubesum.test/.well-known/oauth-protected-resource/mcp',
      headers: {
        authorization: `Bearer ${CREDENTIAL}`,
        cookie: `session=${CREDENTIAL}`,
        'x-api-key': CREDENTIAL,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
      },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      deadlineAt: Date.now() + 60_000,
    });

    expect(reply.statusCode).toBe(200);
    expect(seen).toHaveLength(1);
    const names = [...(seen[0]?.keys() ?? [])].sort();
    expect(names).toEqual(['accept', 'content-type', 'mcp-protocol-version']);
    expect(JSON.stringify([...(seen[0]?.values() ?? [])])).not.toContain(CREDENTIAL);
    expect(reply.body).not.toContain(CREDENTIAL);
  });
});
