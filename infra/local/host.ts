// The local host: DynamoDB Local (unless the Config names another DynamoDB), the table, a JWT
// secret, and the route table served over HTTP, listening before the database is up. Used by
// `npm start` and by the tests, each with a Config of its own, which every handler is built from.
// A function's handler is loaded at the first request that needs it, the worker's at the first
// job: a start holds only what serving needs (issue 38).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, withSettings } from '../../lib/config';
import { WORKER_MARGIN_MS } from '../../lib/config/summaries';
import type { FunctionName } from '../../lib/routes/route';
import { once } from '../../lib/util/once';
import { checkJava, freePort, type LocalDynamo, startDynamoDbLocal } from './dynamodb';
import { DATABASE_WAIT_MS, prepareTable, withinWait } from './host/database';
import { resumeUnfinished } from './host/resume';
import type { LocalQueue, QueueWorker } from './queue';
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
  /** The in-process job queue (POST /summarize's runs, made by the worker in this process). */
  queue: LocalQueue;
  close(): Promise<void>;
}

export interface LocalHostOptions
  extends Pick<LocalServerOptions, 'accessLog' | 'firstRequestTimeoutMs' | 'maxConnections'> {
  /** Where the host tells what it does (default: the console). */
  log?: (line: string) => void;
  /** How long a request may wait for the database (default DATABASE_WAIT_MS). */
  databaseWaitMs?: number;
  /** Shuts down a start still under way: DynamoDB Local is stopped at once, not when up. */
  signal?: AbortSignal;
  /**
   * What the functions are handed besides the host's queue and page (tests: the OAuth client
   * metadata fetch's address policy, as the oauth-clients function takes it).
   */
  services?: Record<string, unknown>;
}

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
 * Starts DynamoDB Local unless the Config names another DynamoDB; what the Config gains then
 * is its endpoint.
 */
async function startDatabase(config: Config, signal: AbortSignal, log: (line: string) => void) {
  if (config.AWS_ENDPOINT_URL_DYNAMODB !== undefined) return { added: {} };
  const port = await freePort();
  log(
    `starting DynamoDB Local (data: ${config.LOCAL_DATA_DIR === 'memory' ? 'in memory' : config.LOCAL_DATA_DIR})`,
  );
  const dynamo: Promise<LocalDynamo> = startDynamoDbLocal({
    dataDir: config.LOCAL_DATA_DIR,
    port,
    signal,
  });
  // Its failure is told by checkJava, or by `database` (prepareTable).
  dynamo.catch(() => undefined);
  return { dynamo, added: { AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${port}` } };
}

/**
 * The Config the handlers are built from: the settings, what the host added, a generated
 * secret when none is set, and the models this machine can serve (said once).
 * @throws ConfigError for a weak JWT_SECRET or an invalid model setting.
 */
async function hostConfig(
  settings: Config,
  added: Partial<Config>,
  credentials: Promise<boolean>,
  log: (line: string) => void,
): Promise<Config> {
  const secret =
    settings.JWT_SECRET === undefined && settings.JWT_SECRET_ARN === undefined
      ? { JWT_SECRET: generatedSecret(settings.LOCAL_DATA_DIR) }
      : {};
  const config = withSettings(settings, { ...added, ...secret });
  const { assertStrongSecret } = await import('../../lib/accounts/auth/tokens');
  if (config.JWT_SECRET !== undefined) assertStrongSecret(config.JWT_SECRET, 'JWT_SECRET');
  // A bad model setting stops the start here, naming it.
  return (await import('./models')).localModels(config, await credentials, log);
}

/**
 * The worker behind the queue, as the stack runs it behind SQS: the same handler, fed the same
 * events. One instance for the host, built on the first message (as Lambda builds one per
 * instance), and built again for the next message if it could not be (a bad setting). A
 * shutdown stops its runs, which give their lease back for the next start.
 */
async function createJobs(config: Config, shutdown: AbortSignal, log: (line: string) => void) {
  const { createLocalQueue } = await import('./queue');
  const worker = once<QueueWorker>(() =>
    import('../../functions/summaries/worker').then((module) =>
      module.create(config, {
        shutdown,
        force: (messageId) => jobs.forced(messageId),
        // No SQS to tell: the local queue waits the same backoff itself.
        redeliver: async () => undefined,
        queue: jobs,
      }),
    ),
  );
  const jobs: LocalQueue = createLocalQueue({
    worker,
    concurrency: config.JOB_CONCURRENCY,
    timeoutMs: config.JOB_DEADLINE_MS + WORKER_MARGIN_MS,
    leaseSeconds: config.JOB_LEASE_SECONDS,
    log,
  });
  return jobs;
}

/**
 * What a request waits for before its function runs: the database while it starts, at most
 * `waitMs`, unless its function needs none. Once up, requests stop asking (no timer per
 * request); a database that never comes up is answered per request, and must not crash the host.
 */
function databaseWait(
  database: Promise<void>,
  waitMs: number,
  stateless: ReadonlySet<FunctionName>,
) {
  let up = false;
  database.then(
    () => {
      up = true;
    },
    () => undefined,
  );
  return (handler: FunctionName) =>
    up || stateless.has(handler) ? undefined : withinWait(database, waitMs);
}

/**
 * Boots everything `npm start` serves and resolves once it listens, which it does at once:
 * DynamoDB Local starts (and the table is created) in parallel, and only the requests whose
 * handlers need the database wait for it.
 * @throws ConfigError for a weak JWT_SECRET or an invalid model setting; JavaMissingError
 *   without Java.
 */
export async function startLocalHost(
  settings: Config,
  options: LocalHostOptions = {},
): Promise<LocalHost> {
  const log = options.log ?? ((line: string) => console.log(line));
  const shutdown = new AbortController();
  options.signal?.addEventListener('abort', () => shutdown.abort());
  const { dynamo, added } = await startDatabase(settings, shutdown.signal, log);
  // Stops DynamoDB Local, at once if it is still starting.
  const stopDynamo = async () => {
    shutdown.abort();
    await (await dynamo?.catch(() => undefined))?.stop();
  };
  // The page for people, built while the JVM starts; a failure is told here and answered by
  // GET / as a 500 (the rest of the API works without it).
  const web = import('../web-build').then((module) => module.buildWeb());
  web.catch((error) => log(`error: the page at / did not build: ${String(error)}`));
  // Whether Bedrock's models can be called here, looked for while the rest starts.
  const credentials = import('./models').then((module) => module.awsCredentialsFound());
  credentials.catch(() => undefined);
  try {
    // Loaded while the JVM starts (on the other core), not before: the route table's schemas
    // and the server take ~0.1 s (the SDK, more, loads with the table).
    const [{ routeList, STATELESS_FUNCTIONS }, server] = await Promise.all([
      import('../../lib/routes'),
      import('./server'),
    ]);
    // Without Java nothing but /health would ever work: say so before listening.
    if (dynamo !== undefined) await checkJava();
    const config = await hostConfig(settings, added, credentials, log);
    const database = prepareTable(config, dynamo, shutdown.signal, log);
    const jobs = await createJobs(config, shutdown.signal, log);
    // Runs a crash (or a kill) left unfinished are resumed once the table is there.
    database.then(
      () => resumeUnfinished(config, jobs, dynamo !== undefined, log),
      () => undefined,
    );
    const local: LocalServer = await server.startLocalServer({
      host: config.HOST,
      port: config.PORT,
      routes: routeList,
      maxBodyBytes: config.MAX_BODY_BYTES,
      corsOrigins: config.CORS_ORIGINS,
      loadHandler: server.functionLoader(config, { ...options.services, queue: jobs, web }),
      waitFor: databaseWait(
        database,
        options.databaseWaitMs ?? DATABASE_WAIT_MS,
        STATELESS_FUNCTIONS,
      ),
      accessLog: options.accessLog,
      firstRequestTimeoutMs: options.firstRequestTimeoutMs,
      maxConnections: options.maxConnections,
    });
    return {
      url: local.url,
      config,
      database,
      queue: jobs,
      close: async () => {
        // Runs give their lease back (they need the database) before anything stops.
        shutdown.abort();
        await jobs.close();
        await local.close();
        await stopDynamo();
      },
    };
  } catch (error) {
    await stopDynamo();
    throw error;
  }
}
