// The host's database: DynamoDB Local waited for and the table created, and the wait a request
// that needs it is given before a 503 while it starts.
import type { Config } from '../../../lib/config';
import { ServiceUnavailableError } from '../../../lib/errors';
import { DYNAMODB_READY_MS, type LocalDynamo } from '../dynamodb';

/**
 * How long a request that needs the database waits for it while it starts before a 503: as long
 * as DynamoDB Local is given to come up (usually 3 s; a busy machine's JVM took over 60 s).
 */
export const DATABASE_WAIT_MS = DYNAMODB_READY_MS;
/** What such a 503 tells the client to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

/** Waits for DynamoDB Local (when the host runs one) and creates the table unless it exists. */
export async function prepareTable(
  config: Config,
  dynamo: Promise<LocalDynamo> | undefined,
  shutdown: AbortSignal,
  log: (line: string) => void,
): Promise<void> {
  try {
    const [{ createDocumentClient }, { ensureTable }] = await Promise.all([
      import('../../../lib/aws/dynamodb'),
      import('../table'),
      dynamo,
    ]);
    const db = createDocumentClient(config);
    const created = await ensureTable(db as never, config.TABLE_NAME, log).finally(() =>
      db.destroy(),
    );
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
export async function withinWait(database: Promise<void>, ms: number): Promise<void> {
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
