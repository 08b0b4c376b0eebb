// One structured JSON logger (Powertools) for every handler. What goes into it is chosen by
// the HTTP layer: never bodies, headers, tokens, passwords or whole emails.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'tubesum' });

type Extra = Record<string, unknown>;

/** The logger behind a plain (message, fields) surface, for lib/ code that takes a logger. */
export const appLogger = {
  info: (message: string, extra: Extra = {}) => logger.info(message, extra),
  warn: (message: string, extra: Extra = {}) => logger.warn(message, extra),
  error: (message: string, extra: Extra = {}) => logger.error(message, extra),
};
