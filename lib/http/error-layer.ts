// The outer layers of a route's stack (lib/http/handler.ts), which turn whatever went wrong into
// the answer: errors of libraries expressed in ours, middy's error handler's choice of status and
// `expose`, the problem+json body, and one access line per request.
import { ConfigError } from '../config';
import { BadRequestError, HttpError, misconfigured } from '../errors';
import { logger } from '../logger';
import type { RouteDef } from '../routes/route';
import { requestIdOf } from './exit';
import type { HttpRequest, Internal, Middleware } from './middleware';
import { routeErrorReply } from './problem';

/**
 * The outermost layer: the problem+json body of an error (over the status and headers middy's
 * error handler chose), and one access line per request.
 */
export function problemsAndAccessLog(route: RouteDef): Middleware {
  const finish = (request: HttpRequest, error?: unknown) => {
    const status = request.response?.statusCode ?? 500;
    const line = {
      method: route.method,
      route: route.path,
      status,
      duration_ms: Date.now() - (request.internal.startedAt ?? Date.now()),
      user_id: request.context.user?.id,
      // Which key, when a key authenticated it (its id: never the key); which connected app,
      // when an OAuth access token did.
      api_key_id: request.context.apiKeyId,
      grant_id: request.context.grantId,
    };
    if (status >= 500) {
      // The cause chain (SDK messages, stacks) goes to the log only, never to the client.
      logger.error('request failed', { ...line, ...(error instanceof HttpError ? { error } : {}) });
    } else if (error) {
      logger.info('request refused', {
        ...line,
        problem: error instanceof HttpError ? error.type : 'unknown',
      });
    } else {
      logger.info('request done', line);
    }
  };

  return {
    before: (request) => {
      (request.internal as Internal).startedAt = Date.now();
    },
    after: (request) => finish(request as HttpRequest),
    onError: (request) => {
      // What middy's error handler made of it: our HttpError, or its opaque 500 in place of
      // anything else (whose cause it logged).
      const error = request.error;
      request.response = routeErrorReply(route, error, requestIdOf(request.event));
      finish(request as HttpRequest, error);
    },
  };
}

/** The log line of an error middy's error handler will hide behind a 500. */
export function logUnexpected(error: unknown): void {
  if (error instanceof HttpError && error.status < 500) return;
  logger.error('unexpected error', { error });
}

/**
 * Errors of libraries, expressed in ours before middy's error handler reads them: a bad
 * configuration (503), and middy's body parsers, which answer a malformed body with 415 (it is
 * a 400) and carry the raw body, which may hold a password, as their `cause` (dropped here).
 */
export function ourErrors(): Middleware {
  return {
    onError: (request) => {
      const error: unknown = request.error;
      if (error instanceof ConfigError) request.error = misconfigured(error);
      const parser = (error as { cause?: { package?: string } } | null)?.cause?.package;
      if (parser === '@middy/http-json-body-parser') {
        request.error = new BadRequestError('The body is not valid JSON.');
      } else if (parser === '@middy/http-urlencode-body-parser') {
        request.error = new BadRequestError('The body is not a valid URL-encoded form.');
      }
    },
  };
}
