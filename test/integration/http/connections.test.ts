// The local host's connections (SECURITY.md, "Faults"): one that sends no request is closed, and
// a crowd of silent sockets cannot keep a real client out, not even when the process has few file
// descriptors.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type LocalHost, startLocalHost } from '../../../infra/local/host';
import { readinessBudget } from '../../support/budget';
import { testConfig } from '../../support/host';
import { waitForOutput } from '../../support/local-process';

let host: LocalHost | undefined;
let child: ChildProcess | undefined;
const sockets: Socket[] = [];
const servers: Server[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await host?.close();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  host = undefined;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

/** Opens `count` connections to `url` that never send a byte; resolves once all connected. */
async function silentSockets(url: string, count: number): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  const opened = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(Number(port), hostname, () => resolve(socket));
          // A connection the server refused or closed at once is still one that was tried.
          socket.on('error', () => resolve(socket));
          sockets.push(socket);
        }),
    ),
  );
  return opened;
}

/** Milliseconds until `socket` closes, or undefined if it is still open after `withinMs`. */
function closedWithin(socket: Socket, withinMs: number): Promise<number | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), withinMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('a connection that sends no request', () => {
  it('is closed after the first-request timeout', async () => {
    host = await startLocalHost(testConfig(), {
      log: () => undefined,
      firstRequestTimeoutMs: 300,
    });
    const [socket] = await silentSockets(host.url, 1);

    // Far past the time-out: only a socket never closed gets undefined, however busy the machine.
    const closedAfter = await closedWithin(socket as Socket, 20_000);

    expect(closedAfter).toBeDefined();
    expect(closedAfter).toBeGreaterThanOrEqual(250);
  });

  it('is not closed by that timeout once its request is in progress', async () => {
    // A database that accepts connections and never answers: /register waits `databaseWaitMs`
    // for it, then answers 503.
    const database = createServer((socket) => {
      sockets.push(socket);
    });
    servers.push(database);
    await new Promise<void>((resolve) => database.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(database.address() as AddressInfo).port}`;
    // The request is sent at once, but a loaded machine may read it a while after the
    // connection: a second for that, then three of the request in progress past it.
    host = await startLocalHost(testConfig({ AWS_ENDPOINT_URL_DYNAMODB: endpoint }), {
      log: () => undefined,
      firstRequestTimeoutMs: 1_000,
      databaseWaitMs: 3_000,
    });
    const started = Date.now();

    const response = await fetch(`${host.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });

    expect(response.status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
  });
});

describe('more connections than the host keeps open', () => {
  it('close the longest silent ones, so /health still answers', async () => {
    host = await startLocalHost(testConfig(), { log: () => undefined, maxConnections: 20 });
    const silent = await silentSockets(host.url, 60);

    const health = await fetch(`${host.url}/health`, { signal: AbortSignal.timeout(20_000) });
    // The closes reach the sockets in their own time: waited for, not given 100 ms.
    await vi.waitFor(
      () => expect(silent.filter((socket) => !socket.closed).length).toBeLessThanOrEqual(20),
      { timeout: 20_000 },
    );

    expect(health.status).toBe(200);
    // The longest waiting went first.
    expect(silent[0]?.closed).toBe(true);
  });
});

describe('as many connections as the host keeps open, all idle between requests', () => {
  it('close an idle one for a new one', async () => {
    host = await startLocalHost(testConfig(), { log: () => undefined, maxConnections: 5 });
    const idle = await silentSockets(host.url, 5);
    // Each sends a request and reads its answer; the connection stays open (keep-alive).
    await Promise.all(
      idle.map(
        (socket) =>
          new Promise((resolve) => {
            socket.once('data', resolve);
            socket.write('GET /health HTTP/1.1\r\nHost: local\r\n\r\n');
          }),
      ),
    );

    const health = await fetch(`${host.url}/health`, { signal: AbortSignal.timeout(20_000) });
    await vi.waitFor(() => expect(idle.some((socket) => socket.closed)).toBe(true), {
      timeout: 20_000,
    });

    expect(health.status).toBe(200);
    expect(idle.filter((socket) => socket.closed)).toHaveLength(1);
  });
});

const hasPrlimit =
  existsSync('/proc/self/limits') && spawnSync('prlimit', ['--version']).status === 0;

describe('the local host process with few file descriptors', () => {
  it.skipIf(!hasPrlimit)(
    'answers /health and /token while more silent sockets are open than it has descriptors',
    async () => {
      // `npm start`'s host, allowed 256 descriptors: 300 silent sockets used to take them all.
      child = spawn(
        'prlimit',
        [
          '--nofile=256',
          process.execPath,
          '--env-file=infra/local/local.env',
          'infra/local/start.mjs',
        ],
        {
          env: {
            ...process.env,
            AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
            TABLE_NAME: `fds-${Date.now()}`,
            JWT_SECRET: randomBytes(48).toString('base64url'),
            BCRYPT_COST: '10',
            PORT: '0',
            HOST: '127.0.0.1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let said = '';
      const url = await new Promise<string>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          said += chunk;
          const found = /^listening on (\S+)$/m.exec(said)?.[1];
          if (found) resolve(found);
        };
        child?.stdout?.on('data', read);
        child?.stderr?.on('data', read);
        child?.once('exit', () => reject(new Error(`exited before listening:\n${said}`)));
      });
      // Its table ready (the host listens before): waited for, as long as a start may take.
      await waitForOutput(() => said, /^table /m, readinessBudget());
      await silentSockets(url, 300);

      // Bounds only against a host that never answers: a loaded machine answers late, not never.
      const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(15_000) });
      const token = await fetch(`${url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'nobody', password: 'not-the-password' }),
        signal: AbortSignal.timeout(15_000),
      });

      expect(health.status).toBe(200);
      expect(token.status).toBe(401);
    },
    readinessBudget() + 40_000,
  );
});
