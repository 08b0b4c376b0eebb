// Wires the stores and services of lib/ to the process's config and AWS clients, once per
// process (a Lambda cold start, or the local host's boot).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from './aws/dynamodb';
import { type Config, getConfig } from './config';
import { createUserStore, type UserStore } from './users/store';

export interface Services {
  config: Config;
  db: DynamoDBDocumentClient;
  users: UserStore;
}

let services: Services | undefined;

/**
 * The process-wide services, created on first use.
 * @throws ConfigError when the environment is invalid.
 */
export function getServices(): Services {
  if (services) return services;
  const config = getConfig();
  const db = createDocumentClient(config);
  const users = createUserStore(db, config.TABLE_NAME);
  services = { config, db, users };
  return services;
}

/** Drops the wired services so the next call re-reads the config (tests, local host). */
export function resetServices(): void {
  services?.db.destroy();
  services = undefined;
}
