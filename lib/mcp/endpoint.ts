// POST /mcp: the Model Context Protocol's Streamable HTTP transport, stateless, answering JSON
// (never an event stream: a Lambda answers once). Each request gets a server and a transport of
// its own from the official SDK, fed the request's JSON-RPC message (already read, size-checked
// and authenticated by the route's stack), and its answer becomes the route's reply.
//
// The SDK's low-level Server is used rather than its McpServer: McpServer lists a zod schema as
// JSON Schema draft-07 with the schema's own `$ref` at the root (our schemas carry ids), which the
// official client's tool list refuses (MCP wants `type: "object"` there), and it cannot list
// summarize_video's two possible answers. Here each tool's schemas are made as the OpenAPI
// document's are, and its arguments are checked by the REST route's own schema.
//
// A tools/call is checked against the caller's scopes before the SDK sees it.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import type { User } from '../accounts/users/store';
import { API_VERSION } from '../api-version';
import { BadRequestError, NotAcceptableError, ValidationError } from '../errors';
import { fieldErrors } from '../field-errors';
import type { Logger } from '../logger';
import { problemHeaders, toProblem } from '../problems/codec';
import type { Reply } from '../reply';
import { assertScope, isObject } from './scope-check';
import { type ToolContext, type ToolDef, toolJsonSchema } from './tools';

/** One POST /mcp, as the route's handler hands it over. */
export interface McpRequest {
  /** The authenticated caller. */
  user: User;
  /** The scopes of the caller's OAuth access token; undefined: every scope (an API key). */
  scopes?: readonly string[] | undefined;
  /** The URL of /mcp's protected resource metadata, which a 403 insufficient_scope names. */
  resourceMetadata: string;
  requestId: string;
  /** The request's headers (lower-case names, as API Gateway gives them). */
  headers: Record<string, string | undefined>;
  /** The JSON body, parsed. */
  body: unknown;
  /** When the answer must be on its way (epoch ms). */
  deadlineAt: number;
}

export interface McpEndpointOptions {
  /** The models this deployment offers (`used_model`'s enum in the tools' schemas). */
  models: readonly string[];
  logger: Logger;
}

/** What an MCP client is told at initialize, for the model that uses the tools. */
const INSTRUCTIONS =
  'Summaries of YouTube videos from their transcripts. summarize_video answers with the summary, or with a job when the summary takes longer: then call get_summary with the job id every few seconds until its status is done. get_transcript gives the captions with their times, a page at a time. ask_video answers a question about a video with citations: links to the moments that say it. summarize_collection summarizes a playlist or channel (each video, then an overview with themes); poll get_collection with its id until its status is done, and ask_collection answers a question across its videos with citations.';

/**
 * The Server's JSON Schema validator. The low-level Server checks JSON Schemas only when it asks a
 * client to fill in a form (elicitation), which these tools never do, so this is never called;
 * should that change, it refuses rather than lets anything pass. Given this, the Server makes no
 * Ajv of its own, and the Lambda bundle leaves Ajv out (lib/mcp/ajv-left-out.ts says how).
 */
const noJsonSchemas: jsonSchemaValidator = {
  getValidator() {
    throw new Error('this MCP server asks clients for nothing, so it validates no JSON Schema');
  },
};

/** The headers the SDK's transport reads; the credential never reaches it. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'];

/**
 * The handler of POST /mcp over `tools`: (request) => the reply.
 * The handler throws InsufficientScopeError (403) for a tools/call of a tool whose scope the
 * caller's token lacks, NotAcceptableError (406) and BadRequestError (400) when the SDK refuses
 * the request itself (its Accept header, a message that is not JSON-RPC); a tool's failure is a
 * tool result with isError, never a throw.
 */
export function createMcpEndpoint(
  tools: readonly ToolDef[],
  options: McpEndpointOptions,
): (request: McpRequest) => Promise<Reply> {
  const { logger } = options;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  // Made on the first tools/list of an instance, not at its cold start.
  let listed: Tool[] | undefined;
  const list = () => {
    listed ??= tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toolJsonSchema(tool.input, 'input', options.models) as Tool['inputSchema'],
      outputSchema: toolJsonSchema(tool.output, 'output', options.models) as Tool['outputSchema'],
      annotations: tool.annotations,
    }));
    return listed;
  };

  return async (request) => {
    assertScope(request, byName);
    const server = new Server(
      { name: 'tubesum', version: API_VERSION },
      {
        capabilities: { tools: {} },
        instructions: INSTRUCTIONS,
        jsonSchemaValidator: noJsonSchemas,
      },
    );
    const context: ToolContext = {
      user: request.user,
      requestId: request.requestId,
      deadlineAt: request.deadlineAt,
    };
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list() }));
    const aside = argumentsAside(request.body);
    server.setRequestHandler(CallToolRequestSchema, ({ params }, extra) => {
      const token = params._meta?.progressToken;
      const progress: ToolContext['progress'] =
        token === undefined
          ? undefined
          : (done, total, message) => {
              extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress: done, total, message },
                })
                .catch((error: unknown) => logger.warn('progress not sent', { error }));
            };
      return callTool({ byName, logger }, params.name, aside ? aside.value : params.arguments, {
        ...context,
        progress,
      });
    });
    // Stateless (no session id), and JSON answers unless the client asked for progress: then
    // an event stream of the notifications and the answer. A function answers once, so the
    // stream arrives whole, when the answer is ready (API Gateway buffers it; so does the local
    // host): the notifications come with the answer, not before it.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !asksForProgress(request.body),
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(webRequest(request.headers), {
        parsedBody: aside ? aside.message : request.body,
      });
      return await replyOf(response);
    } finally {
      await server.close();
    }
  };
}

/** A tools/call: `args` as the client sent them (absent: none), checked here, not by the SDK. */
async function callTool(
  { byName, logger }: { byName: ReadonlyMap<string, ToolDef>; logger: Logger },
  name: string,
  args: unknown,
  context: ToolContext,
): Promise<CallToolResult> {
  const tool = byName.get(name);
  // An unknown tool is a protocol error (the client asked for something that is not there).
  if (!tool) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}`);
  }
  const started = Date.now();
  try {
    const parsed = tool.input.safeParse(args === undefined ? {} : args);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error).map((error) =>
        error.field === 'body' ? { ...error, field: 'arguments' } : error,
      );
      throw new ValidationError(errors);
    }
    const answer = await tool.run(parsed.data, context);
    logger.info('tool call done', { tool: tool.name, duration_ms: Date.now() - started });
    const json = { type: 'text' as const, text: JSON.stringify(answer.structured) };
    return {
      content: answer.note ? [{ type: 'text', text: answer.note }, json] : [json],
      structuredContent: answer.structured as Record<string, unknown>,
    };
  } catch (error) {
    return toolError(logger, tool.name, error, context.requestId, Date.now() - started);
  }
}

/** A tool's failure as MCP tells it: isError, with the problem the REST route would answer. */
function toolError(
  logger: Logger,
  name: string,
  thrown: unknown,
  requestId: string,
  durationMs: number,
): CallToolResult {
  const problem = toProblem(thrown, requestId);
  const line = { tool: name, status: problem.status, duration_ms: durationMs };
  if (problem.status >= 500) {
    // The cause chain (SDK messages, stacks) goes to the log only, as for a REST route.
    logger.error('tool call failed', { ...line, error: thrown });
  } else {
    logger.info('tool call refused', { ...line, problem: problem.type });
  }
  const retryAfter = problemHeaders(thrown)['Retry-After'];
  const fields = (problem.errors as { field: string; message: string }[] | undefined) ?? [];
  const said = [
    `${problem.title} (${problem.status}): ${problem.detail}`,
    ...fields.map(({ field, message }) => `${field}: ${message}`),
    ...(retryAfter ? [`Try again in ${retryAfter} seconds.`] : []),
  ].join('\n');
  // Not in structuredContent: that must match the tool's outputSchema, and the official client
  // checks it even on an error result. The problem itself follows as JSON.
  return {
    isError: true,
    content: [
      { type: 'text', text: said },
      { type: 'text', text: JSON.stringify(problem) },
    ],
  };
}

/**
 * A tools/call whose `arguments` are not an object (null, a list, a string), set aside: the SDK
 * checks every tools/call against its own schema before a handler runs and answers a mismatch
 * with JSON-RPC -32603 "Internal error" and its raw issue list. Bad arguments are the tool's to
 * refuse (a tool error in the words of the REST route's 422), so the SDK is given the message
 * with empty arguments and the handler checks `value`, the arguments as sent.
 */
function argumentsAside(body: unknown): { message: unknown; value: unknown } | undefined {
  if (!isObject(body) || body.method !== 'tools/call' || !isObject(body.params)) return undefined;
  const value = body.params.arguments;
  if (value === undefined || isObject(value)) return undefined;
  return { message: { ...body, params: { ...body.params, arguments: {} } }, value };
}

/** Whether a message is a tools/call that asks for progress notifications (a progressToken). */
function asksForProgress(body: unknown): boolean {
  const message = body as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } };
  const token = message?.params?._meta?.progressToken;
  return (
    message?.method === 'tools/call' && (typeof token === 'string' || typeof token === 'number')
  );
}

/** The web Request the transport reads: the method and its headers (the body is given parsed). */
function webRequest(headers: McpRequest['headers']): Request {
  const forwarded = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = headers[name];
    if (value !== undefined) forwarded.set(name, value);
  }
  // The transport only reads the URL into what handlers may see; these handlers never look.
  return new Request('http://tubesum.invalid/mcp', { method: 'POST', headers: forwarded });
}

/**
 * The transport's answer as the route's reply: a JSON-RPC response (200), an accepted
 * notification (202, no body), or its refusal of the request as our problem.
 * @throws NotAcceptableError, BadRequestError for the transport's 4xx; Error for anything else.
 */
async function replyOf(response: Response): Promise<Reply> {
  const body = await response.text();
  if (response.status >= 400) throw transportError(response.status, body);
  return {
    statusCode: response.status,
    headers: body
      ? { 'Content-Type': response.headers.get('content-type') ?? 'application/json' }
      : {},
    ...(body ? { body } : {}),
  };
}

/** The SDK's refusal (a JSON-RPC error without id) as the problem of our other routes. */
function transportError(status: number, body: string): Error {
  let message: string | undefined;
  try {
    message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message as string;
  } catch {
    message = undefined;
  }
  const detail =
    typeof message === 'string' ? message : 'The MCP transport cannot take this request.';
  if (status === 406) return new NotAcceptableError(detail);
  if (status < 500) return new BadRequestError(detail);
  return new Error(`the MCP transport answered ${status}: ${detail}`);
}
