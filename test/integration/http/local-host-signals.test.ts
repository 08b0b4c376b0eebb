// `npm start` stopped the ways a user stops it: a signal to npm's own process (`npm start &`,
// then `kill $!`) stops the host and frees its port, and nothing the host started outlives it,
// not even when it is killed with SIGKILL. Reads the process table in /proc (Linux).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { readinessBudget } from '../../support/budget';

const READY_MS = readinessBudget();
/** How long the host may take to stop once it was told to (or its parent is gone). */
const STOP_MS = 20_000;
const linux = existsSync('/proc/self/stat');

/** Processes this file started (or found started for it), killed by id after each test. */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended already
    }
  }
});

/** A process's parent id and command line, or undefined once it ended (or is a zombie). */
function processInfo(pid: number): { ppid: number; command: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined;
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    return { ppid: Number(fields[1]), command };
  } catch {
    return undefined;
  }
}

const running = (pid: number) => processInfo(pid) !== undefined;

/** Every process below `pid` (children, their children, ...). */
function descendants(pid: number): number[] {
  const all = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .map((id) => ({ id, info: processInfo(id) }));
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const { id, info } of all) {
      if (info?.ppid === parent) {
        found.push(id);
        visit(id);
      }
    }
  };
  visit(pid);
  return found;
}

/** Polls `check` every 50 ms until it holds or `ms` passed; returns whether it held. */
async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Starts `command`, resolving once it prints "listening on <url>". */
async function startHost(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child.pid as number);
  let output = '';
  const read = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  // Set on 'close', which comes after the last of the output is read (the host may outlive npm).
  let closed = false;
  child.once('close', () => {
    closed = true;
  });
  let url: string | undefined;
  await eventually(() => {
    url = /^listening on (\S+)$/m.exec(output)?.[1];
    return url !== undefined || child.exitCode !== null;
  }, READY_MS);
  if (url === undefined) throw new Error(`the host did not start:\n${output}`);
  return { child, url, output: () => output, closed: () => closed };
}

/** The node process that runs the host below `pid` (npm's child, or a shell's). */
function hostBelow(pid: number): number {
  const host = descendants(pid).find((id) => {
    const command = processInfo(id)?.command ?? '';
    return command.includes('infra/local/start.mjs') && !/^(\/bin\/)?sh /.test(command);
  });
  if (host === undefined) throw new Error(`no host process below ${pid}`);
  started.push(host);
  return host;
}

/** `npm start` as a user runs it, against the run's DynamoDB Local. */
function npmStart(): ReturnType<typeof startHost> {
  return startHost('npm', ['start'], {
    ...process.env,
    AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    TABLE_NAME: `npm-${Date.now()}`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    PORT: '0',
    HOST: '127.0.0.1',
  });
}

/** Whether anything still answers at `url`. */
const answers = (url: string) =>
  fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );

describe.skipIf(!linux)('npm start, given a signal to npm itself', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the host cleanly and frees its port on %s',
    async (signal) => {
      const npm = await npmStart();
      const host = hostBelow(npm.child.pid as number);

      npm.child.kill(signal);
      const stopped = await eventually(() => !running(host), STOP_MS);

      expect(stopped, npm.output()).toBe(true);
      expect(await answers(npm.url)).toBe(false);
      expect(await eventually(npm.closed, STOP_MS), npm.output()).toBe(true);
      expect(npm.output()).toContain(`${signal} received, shutting down`);
    },
    READY_MS + STOP_MS + 5_000,
  );

  it(
    'stops the host cleanly when npm is killed with SIGKILL',
    async () => {
      const npm = await npmStart();
      const host = hostBelow(npm.child.pid as number);

      npm.child.kill('SIGKILL');
      const stopped = await eventually(() => !running(host), STOP_MS);

      expect(stopped, npm.output()).toBe(true);
      expect(await answers(npm.url)).toBe(false);
      expect(await eventually(npm.closed, STOP_MS), npm.output()).toBe(true);
      expect(npm.output()).toMatch(/the parent process \(\d+\) ended, shutting down/);
    },
    READY_MS + STOP_MS + 5_000,
  );
});

describe.skipIf(!linux)('the host killed with SIGKILL', () => {
  it(
    'takes its own DynamoDB Local with it',
    async () => {
      const { AWS_ENDPOINT_URL_DYNAMODB: _theRunsOwn, ...env } = process.env;
      const host = await startHost(
        process.execPath,
        ['--env-file=infra/local/local.env', 'infra/local/start.mjs'],
        { ...env, LOCAL_DATA_DIR: 'memory', PORT: '0', HOST: '127.0.0.1' },
      );
      const pid = host.child.pid as number;
      await eventually(() => /^table /m.test(host.output()), READY_MS);
      const java = descendants(pid).filter((id) =>
        processInfo(id)?.command.includes('DynamoDBLocal.jar'),
      );
      started.push(...java);
      expect(java, host.output()).toHaveLength(1);

      host.child.kill('SIGKILL');
      const gone = await eventually(() => !running(java[0] as number), STOP_MS);

      expect(gone).toBe(true);
    },
    READY_MS * 2 + STOP_MS,
  );
});
