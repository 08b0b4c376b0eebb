// The JSON-RPC messages POST /mcp carries, as the route table and the OpenAPI document describe
// them. Kept apart from schemas.ts (the tools' arguments and answers): the route table, and so
// every function's bundle, loads these; the tools' schemas only the MCP function needs.
import * as z from '../schema';

/**
 * A JSON-RPC message as POST /mcp takes it: any JSON object. Whether it is a message of the
 * Model Context Protocol is the MCP SDK's to say (400 with its reason), not ours: one judge.
 */
export const mcpMessageSchema = z.looseObject({}).check(
  z.meta({
    id: 'McpMessage',
    description:
      'One JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, a notification). Send `Accept: application/json, text/event-stream`; after initialize, `MCP-Protocol-Version`.',
    examples: [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'summarize_video',
          arguments: { video_url: 'https://www.youtube.com/watch?v=GJLlxj_dtq8' },
        },
      },
    ],
  }),
);

/** The JSON-RPC answer to a request: its result (a tool's result included) or its error. */
export const mcpResponseSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]),
    result: z.optional(z.looseObject({})),
    error: z.optional(
      z.looseObject({ code: z.int().check(z.minimum(-32_768)), message: z.string() }),
    ),
  })
  .check(
    z.meta({
      id: 'McpResponse',
      description:
        "A JSON-RPC 2.0 response: `result` (a tool's result: `content`, `structuredContent`, `isError`) or `error`",
    }),
  );
