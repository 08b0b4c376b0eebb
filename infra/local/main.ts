// `npm start`: the API on this machine with embedded defaults (DynamoDB Local, the offline
// summarizer, a generated JWT secret), configured from the environment (plus
// infra/local/local.env, which `npm start` loads). Stops cleanly on SIGINT/SIGTERM, also while
// it is still starting (DynamoDB Local never outlives it), and, with --stop-with-parent (which
// `npm start` passes), when the process that started it ends.
import { loadConfig } from '../../lib/config';
import { ConfigError } from '../../lib/errors';
import { JavaMissingError } from './dynamodb';
import { type LocalHost, startLocalHost } from './host';

/**
 * How often the host looks whether its parent is still there. npm forwards SIGINT and SIGTERM
 * (package.json's `exec` puts no shell in between), but a SIGKILL, or npm crashing, leaves the
 * host to find out by itself: it is then adopted by another process, and its parent id changes.
 */
const PARENT_CHECK_MS = 500;

const shutdown = new AbortController();
let host: LocalHost | undefined;
let stopping = false;
const stop = async (reason: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${reason}, shutting down`);
  shutdown.abort();
  await host?.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT received'));
process.on('SIGTERM', () => void stop('SIGTERM received'));
// Only when asked: `nohup node infra/local/start.mjs &` is meant to outlive its shell. A parent
// id of 1 at the start means there is no parent to outlive (a container's init, a daemon).
const parent = process.ppid;
if (process.argv.includes('--stop-with-parent') && parent !== 1) {
  setInterval(() => {
    if (process.ppid !== parent) void stop(`the parent process (${parent}) ended`);
  }, PARENT_CHECK_MS).unref();
}

try {
  // One access line per request, beside the handlers' own JSON log lines.
  host = await startLocalHost(loadConfig(), {
    accessLog: (entry) =>
      console.log(JSON.stringify({ level: 'INFO', message: 'access', ...entry })),
    signal: shutdown.signal,
  });
  if (!stopping) {
    console.log(`listening on ${host.url}`);
    console.log(`docs: ${host.url}/docs`);
  }
} catch (error) {
  // A start cut short by a signal: stop() ends the process.
  if (!stopping) {
    if (error instanceof ConfigError || error instanceof JavaMissingError) {
      console.error(`error: ${error.message}`);
    } else {
      console.error('error: the local host could not start:', error);
    }
    process.exit(1);
  }
}
