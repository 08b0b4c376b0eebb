// `npm start`: the API on this machine with embedded defaults (DynamoDB Local, the offline
// summarizer, a generated JWT secret), configured from the environment (plus
// infra/local/local.env, which `npm start` loads). Stops cleanly on SIGINT/SIGTERM, also while
// it is still starting (DynamoDB Local never outlives it).
import { ConfigError, loadConfig } from '../../lib/config';
import { JavaMissingError } from './dynamodb';
import { type LocalHost, startLocalHost } from './host';

const shutdown = new AbortController();
let host: LocalHost | undefined;
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, shutting down`);
  shutdown.abort();
  await host?.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

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
