// SECURITY.md "Faults": DynamoDB down or hanging gives 503 + Retry-After within our deadline,
// and /health keeps answering.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../infra/local/dynamodb';
import { functionLoader, type LocalServer, startLocalServer } from '../../../infra/local/server';
import { routeList } from '../../../lib/routes';
import { newUser, testConfig } from '../../support/host';

let blackhole: Server;
const sockets: Socket[] = [];
let server: LocalServer;

async function serveWithDynamoAt(endpoint: string) {
  const config = testConfig({
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    DYNAMODB_TIMEOUT_MS: '500',
    TABLE_NAME: 'unreachable',
  });
  await server?.close();
  server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    routes: routeList,
    maxBodyBytes: 16_384,
    corsOrigins: [],
    loadHandler: functionLoader(config),
  });
}

beforeAll(async () => {
  // Accepts connections and never answers: a hung DynamoDB endpoint.
  blackhole = createServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => blackhole.close(() => resolve()));
  await server?.close();
});

describe.each([
  ['hanging', async () => `http://127.0.0.1:${(blackhole.address() as { port: number }).port}`],
  ['refusing connections', async () => `http://127.0.0.1:${await freePort()}`],
])('with DynamoDB %s', (_case, endpoint) => {
  beforeAll(async () => serveWithDynamoAt(await endpoint()));

  it('answers POST /register with 503 and Retry-After well within API Gateway’s 30 s', async () => {
    const started = Date.now();

    const response = await fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(newUser()),
    });
    const body = (await response.json()) as { type: string };

    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(body.type).toBe('urn:tubesum:problem:storage-unavailable');
    // The requirement itself (API Gateway gives up at 30 s), not a guess of how fast: a hung
    // endpoint takes DYNAMODB_TIMEOUT_MS per attempt, seconds in all, more on a loaded machine.
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('answers POST /token with 503, not 401', async () => {
    const response = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'someone', password: 'some-password' }),
    });

    expect(response.status).toBe(503);
  });

  it('still answers GET /health with 200', async () => {
    const response = await fetch(`${server.url}/health`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'healthy' });
  });
});
