// The local host listens before its database is up: /health and the docs answer at once, requests
// that need the database wait for it, and answer 503 + Retry-After when it never comes up.
import { existsSync, readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { DYNAMODB_JVM_FLAGS, freePort } from '../../../infra/local/dynamodb';
import { type LocalHost, startLocalHost } from '../../../infra/local/host';
import { newUser, testConfig } from '../../support/host';

const servers: Server[] = [];
const sockets: Socket[] = [];
let host: LocalHost | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/**
 * A DynamoDB endpoint that holds every connection until `open()`, then passes it through to the
 * run's DynamoDB Local: a database still starting. Never opened, it is one that hangs.
 */
async function gatedDynamo() {
  const target = new URL(inject('dynamoEndpoint'));
  let opened = false;
  const held: Socket[] = [];
  const pass = (socket: Socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.push(upstream);
    socket.pipe(upstream).pipe(socket);
  };
  const server = createServer((socket) => {
    sockets.push(socket);
    if (opened) pass(socket);
    else held.push(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    open() {
      opened = true;
      for (const socket of held.splice(0)) pass(socket);
    },
  };
}

const register = (url: string) =>
  fetch(`${url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(newUser()),
  });

describe('the local host while its database starts', () => {
  it('serves /health, /openapi.json and /docs at once, and registers once the database is up', async () => {
    const dynamo = await gatedDynamo();
    const log: string[] = [];
    // Held requests must not time out meanwhile, however slow this machine is right now.
    const settings = { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint, DYNAMODB_TIMEOUT_MS: '20000' };
    host = await startLocalHost(testConfig(settings), { log: (line) => log.push(line) });
    let settled = false;
    void host.database.then(() => {
      settled = true;
    });

    for (const path of ['/health', '/openapi.json', '/docs']) {
      expect((await fetch(host.url + path)).status, path).toBe(200);
    }
    const registering = register(host.url).then((response) => ({ response, at: Date.now() }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    const openedAt = Date.now();
    dynamo.open();
    const { response, at } = await registering;

    expect(response.status).toBe(201);
    expect(at).toBeGreaterThanOrEqual(openedAt);
    await host.database;
    expect(log.join('\n')).toMatch(/table test-[\w-]+ created at http:\/\/127\.0\.0\.1:\d+/);
  });

  it('answers 503 storage-unavailable with Retry-After when the database keeps it waiting too long', async () => {
    const dynamo = await gatedDynamo();
    host = await startLocalHost(testConfig({ AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint }), {
      log: () => undefined,
      databaseWaitMs: 300,
    });
    const started = Date.now();

    const response = await register(host.url);
    const body = (await response.json()) as { type: string; detail: string };

    expect(response.status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(body.type).toMatch(/storage-unavailable$/);
    expect(body.detail).toMatch(/still starting/);
    expect((await fetch(`${host.url}/health`)).status).toBe(200);
  });

  it('answers 503 at once, and logs why, when the database never comes up', async () => {
    const log: string[] = [];
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    host = await startLocalHost(
      testConfig({ AWS_ENDPOINT_URL_DYNAMODB: endpoint, DYNAMODB_TIMEOUT_MS: '200' }),
      { log: (line) => log.push(line) },
    );
    await expect(host.database).rejects.toThrow();

    const registration = await register(host.url);
    const token = await fetch(`${host.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'someone', password: 'whatever-it-is' }),
    });

    for (const response of [registration, token]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const body = (await response.json()) as { type: string; detail: string };
      expect(body.type).toMatch(/storage-unavailable$/);
      expect(body.detail).toMatch(/did not start/);
    }
    expect(log.join('\n')).toContain(`error: the database at ${endpoint} did not come up`);
    expect((await fetch(`${host.url}/health`)).status).toBe(200);
  });
});

describe('the table', () => {
  it('is created by the first host and found by the next, users kept', async () => {
    const settings = testConfig();
    const log: string[] = [];
    host = await startLocalHost(settings, { log: (line) => log.push(line) });
    await host.database;
    const user = newUser();
    const first = await fetch(`${host.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    await host.close();
    host = await startLocalHost(settings, { log: (line) => log.push(line) });
    await host.database;
    const again = await fetch(`${host.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });

    expect(first.status).toBe(201);
    expect(again.status).toBe(409);
    expect(log.filter((line) => line.startsWith('table '))).toEqual([
      expect.stringMatching(new RegExp(`^table ${settings.TABLE_NAME} created at `)),
      expect.stringMatching(new RegExp(`^table ${settings.TABLE_NAME} found at `)),
    ]);
  });
});

describe('DynamoDB Local as the host starts it', () => {
  it.skipIf(!existsSync('/proc/self/environ'))(
    'runs with the JVM flags that start it faster',
    () => {
      // The run's own DynamoDB Local, started by startDynamoDbLocal (test/support).
      const environment = readFileSync(`/proc/${inject('dynamoPid')}/environ`, 'utf8').split('\0');
      const options = environment
        .find((entry) => entry.startsWith('JDK_JAVA_OPTIONS='))
        ?.slice('JDK_JAVA_OPTIONS='.length);

      expect(DYNAMODB_JVM_FLAGS.length).toBeGreaterThan(0);
      for (const flag of DYNAMODB_JVM_FLAGS) expect(options?.split(' ')).toContain(flag);
    },
  );
});
