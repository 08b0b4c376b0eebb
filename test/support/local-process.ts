// `npm start` as a user runs it, in a child process: what the OAuth end-to-end test connects
// agents to. It prints where it listens; its output is kept for the test to read.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { readinessBudget } from './budget';

export interface LocalProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM, and its exit. */
  stop(): Promise<void>;
}

/**
 * Resolves when `pattern` shows in `output()`; rejects after `timeoutMs`, or as soon as `child`
 * (when given) has closed without saying it, with the output either way. 'close', not 'exit':
 * it comes after the last of the child's output is read, which may still hold the pattern.
 */
export function waitForOutput(
  output: () => string,
  pattern: RegExp,
  timeoutMs: number,
  child?: ChildProcess,
): Promise<RegExpMatchArray> {
  let closed = false;
  child?.once('close', () => {
    closed = true;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}; output:\n${output()}`)),
      timeoutMs,
    );
    const check = () => {
      const match = pattern.exec(output());
      if (match) {
        clearTimeout(timer);
        resolve(match);
      } else if (closed) {
        clearTimeout(timer);
        const end = child?.exitCode ?? child?.signalCode;
        reject(new Error(`exited (${end}) before saying ${pattern}; output:\n${output()}`));
      } else setTimeout(check, 50);
    };
    check();
  });
}

/**
 * Starts what `npm start` runs (without npm in between) on the run's DynamoDB Local, a table of
 * its own and any free port, with `env` on top; resolves once it listens.
 */
export async function startLocalProcess(env: Record<string, string> = {}): Promise<LocalProcess> {
  let output = '';
  const child = spawn(
    process.execPath,
    ['--env-file=infra/local/local.env', 'infra/local/start.mjs'],
    {
      env: {
        ...process.env,
        AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
        TABLE_NAME: `proc-${Date.now()}-${randomBytes(3).toString('hex')}`,
        JWT_SECRET: randomBytes(48).toString('base64url'),
        BCRYPT_COST: '10',
        PORT: '0',
        HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const read = () => output;
  try {
    const url =
      (
        await waitForOutput(read, /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m, readinessBudget())
      )[1] ?? '';
    return {
      url,
      child,
      output: read,
      stop: async () => {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
