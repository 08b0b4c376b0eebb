// `npm start` as a user runs it: a child process that prints where it listens, serves a full
// flow, logs JSON lines that never contain a password, token, secret or whole email, and stops
// cleanly on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../../../infra/access-log';
import { readinessBudget } from '../../support/budget';
import { newUser } from '../../support/host';
import { waitForOutput } from '../../support/local-process';

const secret = randomBytes(48).toString('base64url');
let child: ChildProcess;
let output = '';
let url = '';

// Derived from how long DynamoDB Local took to start on this machine in this run.
const READY_MS = readinessBudget();
/** Requests sent to the host, each of which must leave exactly one access line. */
let requestsSent = 0;

const waitFor = (pattern: RegExp) => waitForOutput(() => output, pattern, READY_MS, child);

beforeAll(async () => {
  // What `npm start` runs (without npm in between).
  child = spawn(process.execPath, ['--env-file=infra/local/local.env', 'infra/local/start.mjs'], {
    env: {
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: `proc-${Date.now()}`,
      JWT_SECRET: secret,
      BCRYPT_COST: '10',
      PORT: '0',
      HOST: '127.0.0.1',
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  url = (await waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+)$/m))[1] ?? '';
}, READY_MS + 5_000);
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

const send = (path: string, init: RequestInit = {}) => {
  requestsSent += 1;
  return fetch(url + path, init);
};

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the local host process', () => {
  it('prints one "listening on" line and the docs URL', async () => {
    // The docs line is a second write: it may reach the pipe after "listening on" was read.
    const docs = await waitFor(/^docs: (\S+)$/m);
    expect(docs[1]).toBe(`${url}/docs`);
    expect(output.match(/^listening on /gm)).toHaveLength(1);
  });

  it('says which models it offers: Bedrock’s too, with AWS credentials at hand', () => {
    // The tests' environment has AWS_ACCESS_KEY_ID (vitest.config.ts): the chain resolves.
    expect(output).toMatch(
      /^models: extractive, nova-micro, nova-lite, nova-pro, claude-haiku, claude-sonnet$/m,
    );
    expect(output).not.toMatch(/no AWS credentials/);
  });

  it('logs a full flow without passwords, tokens, secrets or whole emails, then stops on SIGTERM', async () => {
    const user = newUser();
    expect((await post('/register', user)).status).toBe(201);
    expect((await post('/register', { ...user, username: 'other_name' })).status).toBe(409);
    expect((await post('/register', newUser({ password: 'short' }))).status).toBe(422);
    expect(
      (await post('/token', { username: user.username, password: 'wrong-password' })).status,
    ).toBe(401);
    const login = await post('/token', { username: user.email, password: user.password });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const protectedCall = await post(
      '/summarize',
      { video_url: 'x' },
      { authorization: `Bearer ${token}` },
    );
    expect(protectedCall.status).not.toBe(401);
    // An API key: made, used, deleted, refused.
    const created = await post(
      '/api-keys',
      { name: 'log test' },
      { authorization: `Bearer ${token}` },
    );
    const { key, id: keyId } = (await created.json()) as { key: string; id: string };
    const byKey = { authorization: `Bearer ${key}` };
    expect((await send('/summaries', { headers: byKey })).status).toBe(200);
    expect(
      (
        await send(`/api-keys/${keyId}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(204);
    expect((await send('/summaries', { headers: byKey })).status).toBe(401);
    // Answered without the shared HTTP layer (/health) or by the host itself (404, 405, 413).
    const unlayered = {
      200: await send('/health'),
      404: await send('/no-such-path'),
      405: await send('/health', { method: 'DELETE' }),
      413: await post('/register', 'x'.repeat(20_000)),
    };
    // Requests served side by side must keep their own request_id in the logs.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, () => post('/register', newUser())),
    );
    const parallelIds = parallel.map((response) => response.headers.get('x-request-id'));
    // A client that hangs up halfway through its body.
    await new Promise<void>((resolve) => {
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /register HTTP/1.1\r\nHost: local\r\nContent-Type: application/json\r\n' +
            'Content-Length: 100\r\n\r\n{"username":',
          () => setTimeout(() => socket.destroy(), 50),
        );
      });
      socket.on('close', () => resolve());
    });
    requestsSent += 1;

    child.kill('SIGTERM');
    // 'close', not 'exit': it comes after the child's stdout and stderr are read to the end.
    const code = await new Promise((resolve) => child.once('close', resolve));

    expect(code).toBe(0);
    const lines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(output).toContain('"status":201');
    expect(output).not.toContain(user.password);
    expect(output).not.toContain('wrong-password');
    expect(output).not.toContain(token);
    expect(output).not.toContain(token.split('.')[2]);
    expect(output).not.toContain(secret);
    expect(output).not.toContain(key.slice('tsk_'.length));
    expect(output).not.toContain(createHash('sha256').update(key).digest('base64url'));
    // The key's id is what the logs name it by.
    expect(output).toContain(`"api_key_id":"${keyId}"`);
    expect(output.toLowerCase()).not.toContain(user.email.toLowerCase());
    expect(output).toMatch(/SIGTERM received, shutting down/);
    const registeredIds = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.message === 'user registered')
      .map((entry) => entry.request_id);
    for (const id of parallelIds)
      expect(registeredIds.filter((logged) => logged === id)).toHaveLength(1);

    // The hang-up is an access line of its own, not a crash.
    expect(lines.filter((line) => /"level":"ERROR"|handler crashed/.test(line))).toEqual([]);
    expect(output).toContain('The client closed the connection before sending the whole body');
    // One access line per request, in API Gateway's access log fields, whatever answered it.
    const access = lines.map((line) => JSON.parse(line)).filter((e) => e.message === 'access');
    expect(access).toHaveLength(requestsSent);
    for (const entry of access) {
      expect(Object.keys(entry).sort()).toEqual(
        ['level', 'message', ...Object.keys(ACCESS_LOG_FIELDS)].sort(),
      );
    }
    for (const [status, response] of Object.entries(unlayered)) {
      const id = response.headers.get('x-request-id');
      const lines = access.filter((entry) => entry.requestId === id);
      const length = Number(response.headers.get('content-length'));
      expect(length).toBeGreaterThan(0);
      expect(lines, status).toEqual([
        expect.objectContaining({ status: Number(status), responseLength: length }),
      ]);
      expect(response.status).toBe(Number(status));
    }
  });
});

describe('the local host process with its own DynamoDB Local', () => {
  it(
    'listens before DynamoDB Local is up, and a registration sent at once waits for it',
    async () => {
      const { AWS_ENDPOINT_URL_DYNAMODB: _theRunsOwn, ...env } = process.env;
      const own = spawn(
        process.execPath,
        ['--env-file=infra/local/local.env', 'infra/local/start.mjs'],
        {
          env: {
            ...env,
            LOCAL_DATA_DIR: 'memory',
            PORT: '0',
            HOST: '127.0.0.1',
            BCRYPT_COST: '10',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let said = '';
      /** Resolves with the first match of `pattern` in what the host says, as soon as it says it. */
      const saying = (pattern: RegExp) =>
        new Promise<RegExpExecArray>((resolve, reject) => {
          const read = () => {
            const found = pattern.exec(said);
            if (found) resolve(found);
          };
          own.stdout?.on('data', read);
          own.stderr?.on('data', read);
          own.once('exit', () => reject(new Error(`exited before saying ${pattern}:\n${said}`)));
          read();
        });
      const collect = (chunk: Buffer) => {
        said += chunk;
      };
      own.stdout?.on('data', collect);
      own.stderr?.on('data', collect);
      const listening = saying(/^listening on (\S+)$/m).then((found) => found[1] as string);
      // Its line may reach this process after the registration's answer (two pipes, no order
      // between them): waited for, not assumed.
      const tableCreated = saying(/^table tubesum created at/m);
      try {
        // With its output, should it never listen (the test's time-out alone would not say why).
        let silence: NodeJS.Timeout | undefined;
        const ownUrl = await Promise.race([
          listening,
          new Promise<never>((_, reject) => {
            silence = setTimeout(
              () => reject(new Error(`not listening after ${READY_MS} ms:\n${said}`)),
              READY_MS,
            );
          }),
        ]).finally(() => clearTimeout(silence));
        const health = await fetch(`${ownUrl}/health`);
        const registration = await fetch(`${ownUrl}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(newUser()),
        });

        expect(health.status).toBe(200);
        // What the host printed says why, should DynamoDB Local not come up in time.
        expect(registration.status, said).toBe(201);
        await tableCreated;
        const lines = said.split('\n');
        const listenedAt = lines.findIndex((line) => line.startsWith('listening on'));
        const tableAt = lines.findIndex((line) => /^table tubesum created at/.test(line));
        expect(listenedAt).toBeGreaterThanOrEqual(0);
        expect(tableAt).toBeGreaterThan(listenedAt);
      } finally {
        // A host that already exited (its failure is what the test reports) fires no more 'exit'.
        if (own.exitCode === null && own.signalCode === null) {
          const exited = new Promise((resolve) => own.once('exit', resolve));
          own.kill('SIGTERM');
          await exited;
        }
      }
    },
    // Its own DynamoDB Local's start, a bcrypt hash and a table, all on a machine that may be
    // busier now than when READY_MS was measured (82 s were not enough once).
    2 * READY_MS + 30_000,
  );
});

/** Runs `npm start`'s host with `env` on top of this process's and returns its exit and output. */
async function failedStart(env: NodeJS.ProcessEnv) {
  const bad = spawn(
    process.execPath,
    ['--env-file=infra/local/local.env', 'infra/local/start.mjs'],
    {
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let said = '';
  bad.stdout?.on('data', (chunk) => {
    said += chunk;
  });
  bad.stderr?.on('data', (chunk) => {
    said += chunk;
  });
  // 'close', not 'exit': it comes after the last of what the host said is read.
  const code = await new Promise((resolve) => bad.once('close', resolve));
  return { code, said };
}

/** The ids of the DynamoDB Local processes whose parent is `pid` (Linux /proc). */
function dynamoChildren(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        return Number(fields[1]) === pid && command.includes('DynamoDBLocal.jar');
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

/** Whether a process runs (a zombie, ended but not yet reaped by whoever adopted it, does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('the local host process stopped while it starts', () => {
  it.skipIf(!existsSync('/proc/self/stat'))(
    'exits at once on SIGTERM and takes DynamoDB Local with it',
    async () => {
      const { AWS_ENDPOINT_URL_DYNAMODB: _theRunsOwn, ...env } = process.env;
      const starting = spawn(
        process.execPath,
        ['--env-file=infra/local/local.env', 'infra/local/start.mjs'],
        { env: { ...env, LOCAL_DATA_DIR: 'memory', PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let said = '';
      starting.stdout?.on('data', (chunk) => {
        said += chunk;
      });
      starting.stderr?.on('data', (chunk) => {
        said += chunk;
      });
      // 'close', not 'exit': it comes after the last of what the host said is read.
      const exited = new Promise((resolve) => starting.once('close', resolve));
      try {
        let java: number[] = [];
        const deadline = Date.now() + READY_MS;
        while (java.length === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          java = dynamoChildren(starting.pid as number);
        }
        expect(java, said).toHaveLength(1);
        expect(said).not.toMatch(/^table /m);

        starting.kill('SIGTERM');
        const code = await exited;
        // Its JVM goes with it, reaped a moment later on a loaded machine: waited for (10 s at
        // most), not given a fixed 200 ms.
        await vi
          .waitFor(() => expect(running(java[0] as number)).toBe(false), { timeout: 10_000 })
          .catch(() => undefined);

        expect(code).toBe(0);
        expect(said).toMatch(/SIGTERM received, shutting down/);
        expect(running(java[0] as number)).toBe(false);
        expect(said).not.toMatch(/^error/m);
      } finally {
        if (starting.exitCode === null && starting.signalCode === null) starting.kill('SIGKILL');
      }
    },
    READY_MS + 5_000,
  );
});

describe('the local host process with a bad setting', () => {
  it(
    'stops at start, naming YOUTUBE_CLIENTS, for a client it does not know',
    async () => {
      const { code, said } = await failedStart({ YOUTUBE_CLIENTS: 'ANDROID,NOKIA' });

      expect(code).toBe(1);
      expect(said).toMatch(
        /^error: invalid configuration:\n✖ unknown InnerTube client "NOKIA".*\n {2}→ at YOUTUBE_CLIENTS$/m,
      );
      expect(said).not.toMatch(/listening on/);
    },
    READY_MS,
  );

  it(
    'stops at start, saying how to install Java, on a machine without it',
    async () => {
      const { AWS_ENDPOINT_URL_DYNAMODB: _theRunsOwn, ...env } = process.env;
      const { code, said } = await failedStart({
        ...env,
        AWS_ENDPOINT_URL_DYNAMODB: undefined,
        LOCAL_DATA_DIR: 'memory',
        // Nothing to run on the PATH: no java (node itself is started by its full path).
        PATH: '',
      });

      expect(code).toBe(1);
      expect(said).toMatch(/^error: DynamoDB Local needs Java 17\+: install it/m);
      expect(said).not.toMatch(/listening on|Unhandled|at .*main\.mjs/);
    },
    READY_MS,
  );
});
