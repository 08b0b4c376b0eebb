// An exception nobody planned for becomes an opaque 500 problem; its details stay in the log.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../../../infra/local/server';
import { invocation } from '../../../lib/http/entry';
import { createRouteStack } from '../../../lib/http/stack/route-stack';
import type { RouteDef } from '../../../lib/routes/route';
import { testConfig } from '../../support/host';

const boom: RouteDef & { auth: false } = {
  method: 'GET',
  path: '/boom',
  function: 'health',
  auth: false,
  tag: 'service',
  summary: 'always fails',
  description: 'A route whose handler throws.',
  responses: {},
};

let server: LocalServer;
beforeAll(async () => {
  const handler = createRouteStack(boom, testConfig(), async () => {
    throw new Error(
      'AccessDenied on arn:aws:dynamodb:us-east-1:123456789012:table/secret-table at /var/task/index.mjs:1',
    );
  });
  server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    routes: [boom],
    maxBodyBytes: 16_384,
    corsOrigins: [],
    // As every function's entry point serves it (lib/http/entry.ts, invocation).
    loadHandler: async () => invocation(handler),
  });
});
afterAll(() => server?.close());

it('answers an unexpected exception with a 500 problem holding only type, title, status, detail and request_id', async () => {
  const response = await fetch(`${server.url}/boom`);
  const text = await response.text();
  const body = JSON.parse(text);

  expect(response.status).toBe(500);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Object.keys(body).sort()).toEqual(['detail', 'request_id', 'status', 'title', 'type']);
  expect(body.request_id).toBe(response.headers.get('x-request-id'));
  expect(text).not.toMatch(/arn:|secret-table|var\/task|AccessDenied|at \//);
});
