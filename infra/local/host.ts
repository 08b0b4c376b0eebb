// The local host: DynamoDB Local (unless AWS_ENDPOINT_URL_DYNAMODB names another), the table,
// a JWT secret, and the route table served over HTTP. Used by `npm start` and by the tests.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertStrongSecret } from '../../lib/auth/tokens';
import { type Config, getConfig, resetConfig } from '../../lib/config';
import { routeList } from '../../lib/routes';
import { getServices, resetServices } from '../../lib/services';
import { type LocalDynamo, startDynamoDbLocal } from './dynamodb';
import { concurrentInvokeStore, type LocalServerOptions, startLocalServer } from './server';
import { ensureTable } from './table';

export interface LocalHost {
  url: string;
  config: Config;
  close(): Promise<void>;
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
 * Boots everything `npm start` serves and resolves once it listens.
 * @throws ConfigError for invalid settings or a weak JWT_SECRET; JavaMissingError without Java.
 */
export async function startLocalHost(
  log: (line: string) => void = (line) => console.log(line),
  options: Pick<LocalServerOptions, 'accessLog'> = {},
): Promise<LocalHost> {
  await concurrentInvokeStore();
  resetConfig();
  resetServices();
  let config = getConfig();
  if (config.JWT_SECRET === undefined && config.JWT_SECRET_ARN === undefined) {
    // The handlers read their settings from the environment, as on Lambda.
    process.env.JWT_SECRET = generatedSecret(config.LOCAL_DATA_DIR);
  }
  let dynamo: LocalDynamo | undefined;
  if (config.AWS_ENDPOINT_URL_DYNAMODB === undefined) {
    log(
      `starting DynamoDB Local (data: ${config.LOCAL_DATA_DIR === 'memory' ? 'in memory' : config.LOCAL_DATA_DIR})`,
    );
    dynamo = await startDynamoDbLocal({ dataDir: config.LOCAL_DATA_DIR });
    process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  }
  try {
    resetConfig();
    config = getConfig();
    if (config.JWT_SECRET !== undefined) assertStrongSecret(config.JWT_SECRET, 'JWT_SECRET');
    const services = getServices();
    const created = await ensureTable(services.db as never, config.TABLE_NAME);
    log(
      `table ${config.TABLE_NAME} ${created === 'created' ? 'created' : 'found'} at ${config.AWS_ENDPOINT_URL_DYNAMODB}`,
    );
    const server = await startLocalServer({
      host: config.HOST,
      port: config.PORT,
      routes: routeList,
      maxBodyBytes: config.MAX_BODY_BYTES,
      corsOrigins: config.CORS_ORIGINS,
      accessLog: options.accessLog,
    });
    return {
      url: server.url,
      config,
      close: async () => {
        await server.close();
        resetServices();
        await dynamo?.stop();
      },
    };
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
}
