// The agents area's route: POST /mcp, the Model Context Protocol endpoint, its JSON-RPC messages
// checked by the area's own schemas.
import { BadRequestError, InsufficientScopeError, NotAcceptableError } from '../errors';
import { mcpMessageSchema, mcpResponseSchema } from '../mcp/messages';
import { ALL_SCOPES_VALUE } from '../oauth/scopes';
import { handled, type RouteDef, route } from './route';

export const mcpRoutes = {
  mcp: route({
    method: 'POST',
    path: '/mcp',
    function: 'mcp',
    auth: true,
    mcpTokens: true,
    allowedOrigins: 'MCP_ALLOWED_ORIGINS',
    tag: 'agents',
    summary: 'The Model Context Protocol endpoint: tubesum as tools for AI agents',
    description:
      "MCP's Streamable HTTP transport, stateless, answering JSON (send `Accept: application/json, text/event-stream`, as MCP clients do). Connect an MCP client (Claude Code, Claude Desktop, Cursor, VS Code) to this URL with an API key as `Authorization: Bearer tsk_...`. Tools: summarize_video takes the body of POST /summarize and answers its 200 body, or the job (the body of GET /summaries/{id}) when the summary takes longer than the wait; get_summary {id} answers the body of GET /summaries/{id}; get_transcript {video_url, language, start_seconds, end_seconds} answers the captions with their times, a page at a time; ask_video takes the body of POST /ask and answers its 200 body. With an OAuth access token, summarize_video needs the scope summaries:write and the other tools summaries:read (an API key may call every tool; tools/list needs no scope). A tool's failure (a bad argument, an unknown video, the quota) is a result with isError and the problem the REST route would answer, not an HTTP error. GET and DELETE answer 405: there are no sessions and no event streams.",
    body: { schema: mcpMessageSchema, contentTypes: ['application/json'] },
    headers: {
      'MCP-Protocol-Version': {
        description:
          'The protocol version agreed at initialize (MCP clients send it on every later request)',
        examples: ['2025-11-25', '2025-06-18'],
      },
    },
    responses: {
      200: {
        description:
          "The JSON-RPC response: initialize's, the tool list, or a tool's result (content, structuredContent, isError)",
        schema: mcpResponseSchema,
        // A tools/call with a progressToken: its progress notifications, then its answer.
        contentTypes: ['text/event-stream'],
      },
      202: { description: 'A notification accepted (no body)' },
      ...handled,
      400: {
        description:
          'Malformed body (not JSON, not an object), or not a JSON-RPC message of MCP: the detail is the MCP SDK’s reason',
        example: new BadRequestError('Parse error: Invalid JSON-RPC message'),
      },
      406: {
        description: 'Accept does not list both application/json and text/event-stream',
        example: new NotAcceptableError(
          'Not Acceptable: Client must accept both application/json and text/event-stream',
        ),
      },
      403: {
        description:
          'insufficient-scope: a tools/call of a tool the OAuth access token’s scope does not cover; WWW-Authenticate says error="insufficient_scope", the scope to ask the person for, and the resource metadata (MCP’s step-up authorization). origin-not-allowed: a request whose Origin is neither this deployment’s own nor one of MCP_ALLOWED_ORIGINS (MCP’s rule against DNS rebinding), checked before the credential',
        headers: { 'WWW-Authenticate': 'sometimes' },
        example: new InsufficientScopeError(
          `summarize_video needs the scope summaries:write, which this app was not allowed: connect it again and allow ${ALL_SCOPES_VALUE}.`,
          {
            scope: ALL_SCOPES_VALUE,
            resourceMetadata:
              'https://tubesum.example.com/.well-known/oauth-protected-resource/mcp',
          },
        ),
      },
      415: { description: 'Unsupported Content-Type' },
    },
  }),
} as const satisfies Record<string, RouteDef>;
