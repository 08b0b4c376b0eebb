// The programs the speech tests run, from Debian's packages: espeak-ng speaks, ffmpeg encodes
// and decodes, pocketsphinx (0.8+5prealpha, its pocketsphinx_batch) recognizes with the en-us
// model of pocketsphinx-en-us. Whether they are here, whether the tests run without them (CI
// must; a laptop skips them and says how to enable them), and one way to run a program.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** pocketsphinx-en-us: the acoustic model (en-us/), en-us.lm.bin and cmudict-en-us.dict. */
export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/** Each program or file the tests need, and the Debian package it comes from. */
const NEEDED: readonly { what: string; found: () => boolean; debianPackage: string }[] = [
  { what: 'espeak-ng', found: () => onPath('espeak-ng'), debianPackage: 'espeak-ng' },
  { what: 'ffmpeg', found: () => onPath('ffmpeg'), debianPackage: 'ffmpeg' },
  { what: 'ffprobe', found: () => onPath('ffprobe'), debianPackage: 'ffmpeg' },
  {
    what: 'pocketsphinx_batch',
    found: () => onPath('pocketsphinx_batch'),
    debianPackage: 'pocketsphinx',
  },
  {
    what: POCKETSPHINX_MODEL_DIR,
    found: () => existsSync(join(POCKETSPHINX_MODEL_DIR, 'cmudict-en-us.dict')),
    debianPackage: 'pocketsphinx-en-us',
  },
];

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The Debian packages of the speech tools that are missing here (none: all present). */
export function missingSpeechPackages(): string[] {
  return [...new Set(NEEDED.filter((need) => !need.found()).map((need) => need.debianPackage))];
}

/**
 * Whether the speech tests of `what` are skipped: only when a tool is missing and CI is not
 * `true`, and then they say which packages would enable them.
 */
export function skipWithoutSpeechTools(what: string): boolean {
  const missing = missingSpeechPackages();
  const skipped = missing.length > 0 && process.env.CI !== 'true';
  if (skipped) {
    console.warn(
      `speech tests of ${what} SKIPPED: missing Debian packages ${missing.join(' ')}. To run ` +
        `them: sudo apt-get install ${missing.join(' ')}. With CI=true they fail instead.`,
    );
  }
  return skipped;
}

/** @throws Error naming the missing packages (what CI fails with when it lacks them). */
export function requireSpeechTools(): void {
  const missing = missingSpeechPackages();
  if (missing.length > 0) {
    throw new Error(
      `the speech tests need the Debian packages ${missing.join(' ')} (CI=true makes them ` +
        `required): apt-get install ${missing.join(' ')}`,
    );
  }
}

/** How a program ended, and what it printed. */
export interface Ran {
  /** Its exit code; null when a signal ended it (the timeout's SIGKILL among them). */
  exitCode: number | null;
  timedOut: boolean;
  stdout: Buffer;
  stderr: string;
  elapsedMs: number;
}

/**
 * Runs `command` with `args` (no shell) to its end, killing it after `timeoutMs`, or at once
 * when `signal` aborts. Never rejects for a failure of the program itself: the caller reads it.
 * @throws the spawn error when the program cannot be started at all (ENOENT).
 */
export function run(
  command: string,
  args: readonly string[],
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve({
        exitCode,
        timedOut,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString('utf8'),
        elapsedMs: performance.now() - started,
      });
    });
  });
}
