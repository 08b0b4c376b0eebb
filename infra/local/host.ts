// The local host: DynamoDB Local (unless the Config names another DynamoDB), the table, a JWT
// secret, and the route table served over HTTP. Used by `npm start` and by the tests, each
// with a Config of its own, which every handler is built from.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertStrongSecret } from '../../lib/auth/tokens';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { type Config, withSettings } from '../../lib/config';
import { routeList } from '../../lib/routes';
import { type LocalDynamo, startDynamoDbLocal } from './dynamodb';
import { functionLoader, type LocalServerOptions, startLocalServer } from './server';
import { ensureTable } from './table';

export interface LocalHost {
  url: string;
  /** The Config the handlers were built from (with the secret and endpoint the host added). */
  config: Config;
  close(): Promise<void>;
}

export interface LocalHostOptions extends Pick<LocalServerOptions, 'accessLog'> {
  /** Where the host tells what it does (default: the console). */
  log?: (line: string) => void;
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

/** Whether this host may summarise with the offline `extractive` model. */
function offersOffline(config: Config): boolean {
  return config.ALLOWED_MODELS.length === 0 || config.ALLOWED_MODELS.includes('extractive');
}

/**
 * Boots everything `npm start` serves and resolves once it listens.
 * @throws ConfigError for a weak JWT_SECRET; JavaMissingError without Java.
 */
export async function startLocalHost(
  settings: Config,
  options: LocalHostOptions = {},
): Promise<LocalHost> {
  const log = options.log ?? ((line: string) => console.log(line));
  let config = settings;
  if (config.JWT_SECRET === undefined && config.JWT_SECRET_ARN === undefined) {
    config = withSettings(config, { JWT_SECRET: generatedSecret(config.LOCAL_DATA_DIR) });
  }
  if (config.JWT_SECRET !== undefined) assertStrongSecret(config.JWT_SECRET, 'JWT_SECRET');
  let dynamo: LocalDynamo | undefined;
  if (config.AWS_ENDPOINT_URL_DYNAMODB === undefined) {
    log(
      `starting DynamoDB Local (data: ${config.LOCAL_DATA_DIR === 'memory' ? 'in memory' : config.LOCAL_DATA_DIR})`,
    );
    const starting = startDynamoDbLocal({ dataDir: config.LOCAL_DATA_DIR });
    // While DynamoDB Local boots in its own process (seconds), load what would otherwise stall
    // the first offline summary and every request served beside it.
    if (offersOffline(config)) (await import('../../lib/summaries/extractive')).loadLanguageModel();
    dynamo = await starting;
    config = withSettings(config, { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint });
  }
  try {
    const db = createDocumentClient(config);
    const created = await ensureTable(db as never, config.TABLE_NAME).finally(() => db.destroy());
    log(
      `table ${config.TABLE_NAME} ${created === 'created' ? 'created' : 'found'} at ${config.AWS_ENDPOINT_URL_DYNAMODB}`,
    );
    const server = await startLocalServer({
      host: config.HOST,
      port: config.PORT,
      routes: routeList,
      maxBodyBytes: config.MAX_BODY_BYTES,
      corsOrigins: config.CORS_ORIGINS,
      loadHandler: functionLoader(config),
      accessLog: options.accessLog,
    });
    return {
      url: server.url,
      config,
      close: async () => {
        await server.close();
        await dynamo?.stop();
      },
    };
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
}
