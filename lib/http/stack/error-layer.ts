// The outer layers of a route's stack, which hand whatever went wrong to the invocation, the
// one place it becomes a reply: errors of
// libraries expressed in ours, and one access line per request.
import { BadRequestError, HttpError } from '../../errors';
import { logger } from '../../logger';
import { errorStatus } from '../../problems/replies';
import type { RouteDef } from '../../routes/route';
import { LoggedFailure } from '../entry';
import type { HttpRequest, Internal, Middleware } from './middleware';

/**
 * The outermost layer: one access line per request, and an error handed on, logged, with the
 * form its route answers in (the invocation writes the reply).
 */
export function accessLog(route: RouteDef): Middleware {
  const finish = (request: HttpRequest, error?: unknown) => {
    const status =
      error === undefined ? (request.response?.statusCode ?? 500) : errorStatus(error, route);
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
      // Whatever was thrown: the invocation makes it a problem (an opaque 500 for what it does
      // not know); no response here, so middy throws it on.
      const error = request.error;
      finish(request as HttpRequest, error);
      request.error = new LoggedFailure(error, route);
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
