// The outer layers of a route's stack (lib/http/stack/route-stack.ts), which turn whatever went
// wrong into the answer: errors of libraries expressed in ours, the problem+json reply (the codec's,
// lib/problems/codec.ts), and one access line per request.
import { BadRequestError, HttpError } from '../../errors';
import { logger } from '../../logger';
import { routeErrorReply } from '../../problems/replies';
import type { RouteDef } from '../../routes/route';
import { requestIdOf } from '../exit';
import type { HttpRequest, Internal, Middleware } from './middleware';

/** The outermost layer: the problem+json reply of an error, and one access line per request. */
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
      logger.error('request failed', { ...line, ...(error === undefined ? {} : { error }) });
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
      // Whatever was thrown: the codec makes it a problem (an opaque 500 for what it does not know).
      const error = request.error;
      request.response = routeErrorReply(route, error, requestIdOf(request.event));
      finish(request as HttpRequest, error);
    },
  };
}

/**
 * Errors of middy's body parsers, expressed in ours: they answer a malformed body with 415 (it
 * is a 400) and carry the raw body, which may hold a password, as their `cause` (dropped here).
 */
export function ourErrors(): Middleware {
  return {
    onError: (request) => {
      const error: unknown = request.error;
      const parser = (error as { cause?: { package?: string } } | null)?.cause?.package;
      if (parser === '@middy/http-json-body-parser') {
        request.error = new BadRequestError('The body is not valid JSON.');
      } else if (parser === '@middy/http-urlencode-body-parser') {
        request.error = new BadRequestError('The body is not a valid URL-encoded form.');
      }
    },
  };
}
