// Error responses' examples: the problem a status usually answers, made by the same error
// classes and replies as real answers.
import {
  BadRequestError,
  GatewayTimeoutError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  storageUnavailable,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../errors';
import type { Json } from '../json-schema';
import { errorReply } from '../problems/replies';
import type { RouteDef } from '../routes/route';
import { youTubeBadResponse } from '../youtube/errors';

// The request id of the examples: API Gateway's form.
const EXAMPLE_REQUEST_ID = 'Xq3dAjmLIAMEbJQ=';

/**
 * The problem a status usually answers, for a route that names none (ResponseDef.example):
 * made by the same error classes and errorReply() as real answers, so examples cannot drift.
 */
export function usualProblem(status: number, route: RouteDef, allowed: readonly string[]): unknown {
  switch (status) {
    case 400:
      return new BadRequestError('The body is not valid JSON.');
    case 401:
      return new UnauthorizedError('invalid_token');
    case 404:
      return new NotFoundError(`No route for ${route.path}.`);
    case 405:
      return new MethodNotAllowedError([...allowed]);
    case 413:
      return new PayloadTooLargeError(16_384);
    case 415:
      return new UnsupportedMediaTypeError([...(route.body?.contentTypes ?? ['application/json'])]);
    case 422:
      return new ValidationError([{ field: 'body', message: 'is invalid' }]);
    case 429:
      return new TooManyRequestsError(60, 'Too many requests; try again later.');
    case 502:
      return youTubeBadResponse('not a player response');
    case 503:
      return storageUnavailable();
    case 504:
      return new GatewayTimeoutError('youtube-timeout', 'YouTube did not answer in time.');
    default:
      return new Error('an unexpected error'); // 500 internal-error
  }
}

/**
 * An error response's example: the body the route would send for `error` (a wrong method is
 * the router's problem, whatever the route).
 */
export function problemExample(error: unknown, route: RouteDef, status: number): Json {
  const reply = errorReply(error, EXAMPLE_REQUEST_ID, status === 405 ? {} : route);
  return JSON.parse(String(reply.body)) as Json;
}
