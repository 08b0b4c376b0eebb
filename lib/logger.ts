// The one way lib/ logs: a message and structured fields, one JSON object per line (Powertools
// Logger underneath). What goes into a line is chosen by its caller: never bodies, headers,
// tokens, passwords or whole email addresses.
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';

export type LogFields = Record<string, unknown>;

/** What code that logs is handed (the summarizers, the YouTube client, logins). */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const powertools = new PowertoolsLogger({ serviceName: 'tubesum' });

/** The process's logger (POWERTOOLS_LOG_LEVEL sets its level). */
export const logger: Logger = {
  info: (message, fields = {}) => powertools.info(message, fields as LogAttributes),
  warn: (message, fields = {}) => powertools.warn(message, fields as LogAttributes),
  error: (message, fields = {}) => powertools.error(message, fields as LogAttributes),
};

/** Adds keys to every following line of this invocation (the HTTP layer adds request_id). */
export function appendLogKeys(keys: LogFields): void {
  powertools.appendKeys(keys as LogAttributes);
}

/** Forgets the keys of the invocation before (every invocation starts with none). */
export function resetLogKeys(): void {
  powertools.resetKeys();
}
