// Run in a child process by test/integration/http/model-entries.test.ts: the deployed Lambda
// entry points (`handler` of functions/*, each building itself from process.env, where
// OPENAI_MODELS names a model whose window is too small), invoked one after another as on one
// warm instance each, with the caller's token (TEST_TOKEN; at /mcp their API key, TEST_MCP_TOKEN), about a video of the fake YouTube
// (TEST_VIDEO_ID). Prints each reply as a line
// `REPLY <function>-<name> <json>`; Powertools' JSON log lines come in between.
import { randomUUID } from 'node:crypto';
import { apiGatewayEvent, lambdaContext } from '../../infra/local/event';

type Handler = (
  event: unknown,
  context: unknown,
) => Promise<{ statusCode: number; headers: Record<string, string>; body?: string }>;

const token = process.env.TEST_TOKEN ?? '';
const mcpToken = process.env.TEST_MCP_TOKEN ?? '';

async function invoke(name: string, handler: Handler, routeKey: string, body?: unknown) {
  const [method = 'GET', path = '/'] = routeKey.split(' ');
  const requestId = `req-${name}-${randomUUID().slice(0, 8)}`;
  const payload = Buffer.from(body === undefined ? '' : JSON.stringify(body));
  const headers: Record<string, string> = {
    host: 'lambda.test',
    authorization: `Bearer ${path === '/mcp' ? mcpToken : token}`,
    // A new summary answers with its job at once (the worker is another function).
    prefer: 'respond-async',
    accept: 'application/json, text/event-stream',
  };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const event = apiGatewayEvent(
    { method, url: path, headers, httpVersion: '1.1' },
    payload,
    routeKey,
    undefined,
    requestId,
  );
  const reply = await handler(event, lambdaContext(name, requestId));
  console.log(`REPLY ${name} ${JSON.stringify({ requestId, ...reply })}`);
}

const video = `https://www.youtube.com/watch?v=${process.env.TEST_VIDEO_ID}`;
const docs = (await import('../../functions/site')).handler as unknown as Handler;
const summarize = (await import('../../functions/summaries/summarize'))
  .handler as unknown as Handler;
const summaries = (await import('../../functions/summaries/summaries'))
  .handler as unknown as Handler;
const ask = (await import('../../functions/ask')).handler as unknown as Handler;
const mcp = (await import('../../functions/mcp')).handler as unknown as Handler;

await invoke('docs-openapi', docs, 'GET /openapi.json');
await invoke('docs-page', docs, 'GET /docs');
// The model left out, twice (its line is logged once, at the function's start), then the others.
await invoke('summarize-left-out', summarize, 'POST /summarize', {
  video_url: video,
  used_model: 'cramped',
});
await invoke('summarize-left-out-again', summarize, 'POST /summarize', {
  video_url: video,
  used_model: 'cramped',
  summary_length: 120,
});
await invoke('summarize-extractive', summarize, 'POST /summarize', {
  video_url: video,
  used_model: 'extractive',
});
await invoke('summarize-small', summarize, 'POST /summarize', {
  video_url: video,
  used_model: 'small',
  summary_length: 60,
});
await invoke('summaries-list', summaries, 'GET /summaries');
await invoke('ask-left-out', ask, 'POST /ask', {
  video_url: video,
  used_model: 'cramped',
  question: 'What is a convolution?',
});
await invoke('ask-extractive', ask, 'POST /ask', {
  video_url: video,
  used_model: 'extractive',
  question: 'What is a convolution?',
});
await invoke('mcp-list', mcp, 'POST /mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
await invoke('mcp-left-out', mcp, 'POST /mcp', {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'ask_video',
    arguments: { video_url: video, used_model: 'cramped', question: 'What is it about?' },
  },
});
