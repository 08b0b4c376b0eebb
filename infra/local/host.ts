// The local host: DynamoDB Local (unless the Config names another DynamoDB), the table, a JWT
// secret, and the route table served over HTTP, listening before the database is up. Used by
// `npm start` and by the tests, each with a Config of its own, which every handler is built from.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, withSettings } from '../../lib/config';
import { ServiceUnavailableError } from '../../lib/errors';
import { checkJava, freePort, type LocalDynamo, startDynamoDbLocal } from './dynamodb';
import type { LocalServer, LocalServerOptions } from './server';

export interface LocalHost {
  url: string;
  /** The Config the handlers were built from (with the secret and endpoint the host added). */
  config: Config;
  /**
   * Resolves once the database answers and the table exists; rejects if it never comes up.
   * The host listens before that: requests that need the database wait for it, at most
   * DATABASE_WAIT_MS, then answer 503.
   */
  database: Promise<void>;
  close(): Promise<void>;
}

export interface LocalHostOptions extends Pick<LocalServerOptions, 'accessLog'> {
  /** Where the host tells what it does (default: the console). */
  log?: (line: string) => void;
  /** How long a request may wait for the database (default DATABASE_WAIT_MS). */
  databaseWaitMs?: number;
  /** Shuts down a start still under way: DynamoDB Local is stopped at once, not when up. */
  signal?: AbortSignal;
}

/**
 * How long a request that needs the database waits for it while it starts (DynamoDB Local is
 * usually up within 3 s; a slow machine's JVM may take several times that) before a 503.
 */
export const DATABASE_WAIT_MS = 30_000;
/** What such a 503 tells the client to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The signing secret when JWT_SECRET is unset: random, and kept in the data folder so tokens
 * survive a restart (or per process with LOCAL_DATA_DIR=memory).
 */
function generatedSecret(dataDir: string): string {
  if (dataDir === 'memory') return randomBytes(48).toString('base64url');
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/**
 * Boots everything `npm start` serves and resolves once it listens, which it does at once:
 * DynamoDB Local starts (and the table is created) in parallel with loading the handlers, and
 * only the requests whose handlers need the database wait for it.
 * @throws ConfigError for a weak JWT_SECRET; JavaMissingError without Java.
 */
export async function startLocalHost(
  settings: Config,
  options: LocalHostOptions = {},
): Promise<LocalHost> {
  const log = options.log ?? ((line: string) => console.log(line));
  let config = settings;
  let dynamo: Promise<LocalDynamo> | undefined;
  const shutdown = new AbortController();
  options.signal?.addEventListener('abort', () => shutdown.abort());
  /** What the host adds to the Config: DynamoDB Local's endpoint, a generated secret. */
  let added: Partial<Config> = {};
  if (config.AWS_ENDPOINT_URL_DYNAMODB === undefined) {
    const port = await freePort();
    log(
      `starting DynamoDB Local (data: ${config.LOCAL_DATA_DIR === 'memory' ? 'in memory' : config.LOCAL_DATA_DIR})`,
    );
    dynamo = startDynamoDbLocal({
      dataDir: config.LOCAL_DATA_DIR,
      port,
      signal: shutdown.signal,
    });
    // Its failure is told by checkJava below, or by `database` (prepareTable).
    dynamo.catch(() => undefined);
    added = { AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${port}` };
  }
  // Stops DynamoDB Local, at once if it is still starting.
  const stopDynamo = async () => {
    shutdown.abort();
    await (await dynamo?.catch(() => undefined))?.stop();
  };
  try {
    // Loaded while the JVM starts (on the other core), not before: the route table's schemas,
    // jose and the server take ~0.1 s (the SDK, more, loads with the table and the handlers).
    const [{ assertStrongSecret }, { routeList, STATELESS_HANDLERS }, server] = await Promise.all([
      import('../../lib/auth/tokens'),
      import('../../lib/routes'),
      import('./server'),
    ]);
    // Without Java nothing but /health would ever work: say so before listening.
    if (dynamo !== undefined) await checkJava();
    if (config.JWT_SECRET === undefined && config.JWT_SECRET_ARN === undefined) {
      added = { ...added, JWT_SECRET: generatedSecret(config.LOCAL_DATA_DIR) };
    }
    config = withSettings(config, added);
    if (config.JWT_SECRET !== undefined) assertStrongSecret(config.JWT_SECRET, 'JWT_SECRET');
    const database = prepareTable(config, dynamo, shutdown.signal, log);
    // Once up, requests stop asking (no timer per request). A database that never comes up is
    // answered per request below, and must not crash the host.
    let up = false;
    database.then(
      () => {
        up = true;
      },
      () => undefined,
    );
    const waitMs = options.databaseWaitMs ?? DATABASE_WAIT_MS;
    const local: LocalServer = await server.startLocalServer({
      host: config.HOST,
      port: config.PORT,
      routes: routeList,
      maxBodyBytes: config.MAX_BODY_BYTES,
      corsOrigins: config.CORS_ORIGINS,
      loadHandler: server.functionLoader(config),
      waitFor: (handler) =>
        up || STATELESS_HANDLERS.has(handler) ? undefined : withinWait(database, waitMs),
      accessLog: options.accessLog,
    });
    // Loaded while the database starts (a failure shows at the route's first request instead).
    local.preload().catch(() => undefined);
    return {
      url: local.url,
      config,
      database,
      close: async () => {
        await local.close();
        await stopDynamo();
      },
    };
  } catch (error) {
    await stopDynamo();
    throw error;
  }
}

/** Waits for DynamoDB Local (when the host runs one) and creates the table unless it exists. */
async function prepareTable(
  config: Config,
  dynamo: Promise<LocalDynamo> | undefined,
  shutdown: AbortSignal,
  log: (line: string) => void,
): Promise<void> {
  try {
    const [{ createDocumentClient }, { ensureTable }] = await Promise.all([
      import('../../lib/aws/dynamodb'),
      import('./table'),
      dynamo,
    ]);
    const db = createDocumentClient(config);
    const created = await ensureTable(db as never, config.TABLE_NAME).finally(() => db.destroy());
    log(
      `table ${config.TABLE_NAME} ${created === 'created' ? 'created' : 'found'} at ${config.AWS_ENDPOINT_URL_DYNAMODB}`,
    );
  } catch (error) {
    if (shutdown.aborted) throw error;
    log(
      `error: the database at ${config.AWS_ENDPOINT_URL_DYNAMODB} did not come up, so requests ` +
        `that need it answer 503: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error;
  }
}

/** `database`, or a 503 problem once it failed or has kept a request waiting `ms`. */
async function withinWait(database: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const outcome = await Promise.race([database.then(() => 'ready' as const), timeout]);
    if (outcome === 'timeout') {
      throw new ServiceUnavailableError(
        'storage-unavailable',
        `The database is still starting after ${ms / 1000} s; try again shortly.`,
        RETRY_AFTER_SECONDS,
      );
    }
  } catch (error) {
    if (error instanceof ServiceUnavailableError) throw error;
    throw new ServiceUnavailableError(
      'storage-unavailable',
      'The database did not start; the server log says why.',
      RETRY_AFTER_SECONDS,
    );
  } finally {
    clearTimeout(timer);
  }
}
