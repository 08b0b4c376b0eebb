// The Lambda entry points themselves, as deployed (not through the local host, which answers
// some requests on its own): every reply, whatever path made it, leaves through one exit with
// X-Request-Id and the security headers, and every log line carries its own request's id, never
// the one of the invocation before it on the same warm instance.
import { beforeAll, expect, inject, it } from 'vitest';
import { TEST_SECRET } from '../../support/host';
import { invokeInChild, type Reply } from '../../support/lambda-replies';

let replies = new Map<string, Reply>();
let logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  ({ replies, logs } = await invokeInChild('test/support/invoke-handlers.ts', {
    JWT_SECRET: TEST_SECRET,
    AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    TABLE_NAME: 'no-such-table',
    // A missing table is refused at once; this bounds only the requests DynamoDB Local
    // answers, seconds on a loaded machine.
    DYNAMODB_TIMEOUT_MS: '10000',
    // One invocation at a time, as on Lambda's default runtime (no invoke store).
    AWS_LAMBDA_MAX_CONCURRENCY: '',
  }));
}, 60_000);

it.each([
  ['health', 200],
  ['routed', 200],
  ['unrouted', 404],
  ['wrong-method', 405],
  ['mcp-get', 405],
  ['head-docs', 200],
  ['head-summaries', 401],
  ['misconfigured', 503],
  ['configured', 401],
  ['api-keys', 401],
  ['account', 401],
  ['ask', 401],
  ['mcp', 401],
  ['crash', 500],
])('answers %s with %i, X-Request-Id and the security headers', (name, status) => {
  const reply = replies.get(name);

  expect(reply?.statusCode).toBe(status);
  expect(reply?.headers['X-Request-Id']).toBe(reply?.requestId);
  expect(reply?.headers['X-Content-Type-Options']).toBe('nosniff');
  expect(reply?.headers['Referrer-Policy']).toBe('no-referrer');
  expect(reply?.headers['Cache-Control']).toBeDefined();
  if (status >= 400) expect(JSON.parse(reply?.body ?? '{}').request_id).toBe(reply?.requestId);
});

it('answers MCP’s GET with the 405 of the route table (Allow: POST), and POST without a token with the bearer challenge', () => {
  expect(replies.get('mcp-get')?.headers.Allow).toBe('POST');
  expect(replies.get('mcp')?.headers['WWW-Authenticate']).toBe(
    'Bearer realm="tubesum", resource_metadata="https://lambda.test/.well-known/oauth-protected-resource/mcp", scope="summaries:read summaries:write"',
  );
});

it('logs every line with its own request’s id, never the previous invocation’s', () => {
  const ids = new Set([...replies.values()].map((reply) => reply.requestId));
  const withRequest = logs.filter((line) => line.request_id !== undefined);

  // The routed request logged, then the unrouted one on the same instance.
  const refused = logs.find((line) => line.message === 'request refused' && line.status === 404);
  expect(refused?.request_id).toBe(replies.get('unrouted')?.requestId);
  const misconfigured = logs.find((line) => String(line.message).includes('invalid configuration'));
  expect(misconfigured?.request_id).toBe(replies.get('misconfigured')?.requestId);
  const crashed = logs.find((line) => line.message === 'request failed');
  expect(crashed?.request_id).toBe(replies.get('crash')?.requestId);
  for (const line of withRequest) expect(ids).toContain(line.request_id);
});
