// Run in a child process by test/integration/http/lambda-handlers.test.ts: invokes the deployed
// Lambda entry points (`handler` of functions/*, as Lambda calls them, each building itself
// from process.env) with API Gateway events, one after another as on one warm instance, and
// prints each reply as a line `REPLY <name> <json>`. Powertools' JSON log lines come in between.
import { randomUUID } from 'node:crypto';
import { apiGatewayEvent, lambdaContext } from '../../infra/local/event';

type Handler = (
  event: unknown,
  context: unknown,
) => Promise<{ statusCode: number; headers: Record<string, string>; body?: string }>;

async function invoke(
  name: string,
  handler: Handler,
  method: string,
  path: string,
  routeKey: string,
) {
  const requestId = `req-${name}-${randomUUID().slice(0, 8)}`;
  const event = apiGatewayEvent(
    { method, url: path, headers: { host: 'lambda.test' }, httpVersion: '1.1' },
    Buffer.alloc(0),
    routeKey,
    undefined,
    requestId,
  );
  const reply = await handler(event, lambdaContext('test', requestId));
  console.log(`REPLY ${name} ${JSON.stringify({ requestId, ...reply })}`);
}

const health = (await import('../../functions/health')).handler as unknown as Handler;
const docs = (await import('../../functions/site')).handler as unknown as Handler;
const summaries = (await import('../../functions/summaries/summaries'))
  .handler as unknown as Handler;
const apiKeys = (await import('../../functions/accounts/api-keys')).handler as unknown as Handler;
const account = (await import('../../functions/accounts/account')).handler as unknown as Handler;
const ask = (await import('../../functions/ask')).handler as unknown as Handler;
const mcp = (await import('../../functions/mcp')).handler as unknown as Handler;

await invoke('health', health, 'GET', '/health', 'GET /health');
// A routed request of the docs function, then requests no route takes, on the same instance.
await invoke('routed', docs, 'GET', '/openapi.json', 'GET /openapi.json');
await invoke('unrouted', docs, 'GET', '/nope', '$default');
await invoke('wrong-method', docs, 'PATCH', '/health', '$default');
// MCP's GET (an event stream) and DELETE (a session) reach no route: the router's 405.
await invoke('mcp-get', docs, 'GET', '/mcp', '$default');
// API Gateway's HEAD routes (one beside each GET route) reach the GET route's function.
await invoke('head-docs', docs, 'HEAD', '/docs', 'HEAD /docs');
// A function whose configuration is invalid: 503 on every event, until it is valid.
process.env.SUMMARY_DAILY_QUOTA = 'many';
await invoke('misconfigured', summaries, 'GET', '/summaries', 'GET /summaries');
delete process.env.SUMMARY_DAILY_QUOTA;
await invoke('configured', summaries, 'GET', '/summaries', 'GET /summaries');
await invoke('head-summaries', summaries, 'HEAD', '/summaries', 'HEAD /summaries');
// Every function with protected routes: no token, the 401 problem (before any table read).
await invoke('api-keys', apiKeys, 'GET', '/api-keys', 'GET /api-keys');
await invoke('account', account, 'DELETE', '/account', 'DELETE /account');
// The function of POST /ask, as deployed: a protected route, refused without a token.
await invoke('ask', ask, 'POST', '/ask', 'POST /ask');
// The stack sets JOB_QUEUE_URL beside the function; nothing is sent before the 401.
process.env.JOB_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/jobs';
await invoke('mcp', mcp, 'POST', '/mcp', 'POST /mcp');
delete process.env.JOB_QUEUE_URL;
// A route key the function does not serve: a crash, answered as the opaque 500.
await invoke('crash', summaries, 'GET', '/elsewhere', 'GET /elsewhere');
