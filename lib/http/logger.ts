// One structured JSON logger (Powertools) for every handler. What goes into it is chosen by
// the HTTP layer: never bodies, headers, tokens, passwords or whole emails.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'tubesum' });
