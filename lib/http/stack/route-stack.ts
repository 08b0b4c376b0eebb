// The HTTP layer every route shares, as one middy stack:
//   access log -> our errors -> body limit -> Origin (where the route checks it)
//   -> bearer auth -> path parameters -> query -> media type -> middy's body parsers -> zod
//   validation -> action.
// Errors leave the stack logged (the access log logs every 5xx with its cause),
// and the invocation answers them as RFC 9457 problems made by the problem codec
// (status, `expose` below 500, a ConfigError's 503). Every reply,
// whatever made it, leaves through the one exit. CORS is not here:
// API Gateway answers it for every route. A function builds its stacks with
// serve, never by hand.
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Authenticator } from '../../accounts/auth/bearer';
import type { User } from '../../accounts/users/store';
import type { Config } from '../../config';
import type { Reply } from '../../reply';
import type { ParamsDef, RouteDef } from '../../routes/route';
import type { output, ZodMiniType } from '../../schema';
import type { LambdaHandler } from '../entry';
import { requestIdOf } from '../exit';
import { authentication } from './authentication';
import {
  allowedOrigin,
  bodyLimit,
  mediaType,
  objectBody,
  validateBody,
  validatePath,
  validateQuery,
} from './checks';
import { accessLog, ourErrors } from './error-layer';
import type { Internal, RouteContext } from './middleware';

export type { LambdaHandler } from '../entry';

export interface RequestContext<
  Body,
  U extends User | undefined,
  Query = undefined,
  Params = undefined,
> {
  body: Body;
  /** The validated query string (routes with a `query` schema). */
  query: Query;
  /** The validated path parameters (routes with `params` schemas). */
  params: Params;
  /** The authenticated user: a User on routes with `auth: true`, undefined on the others. */
  user: U;
  /** An OAuth access token's scopes (/mcp); undefined: every scope (API keys, login tokens). */
  scopes?: readonly string[] | undefined;
  requestId: string;
  event: APIGatewayProxyEventV2;
  lambda: Context;
  config: Config;
}

export type Action<Body, U extends User | undefined, Query = undefined, Params = undefined> = (
  context: RequestContext<Body, U, Query, Params>,
) => Promise<Reply>;

/** The validated body of a route's requests. */
type BodyOf<R> = R extends RouteDef<infer B> ? output<B> : never;
/** The validated query of a route's requests (undefined for routes that take none). */
type QueryOf<R> = R extends { query?: infer Q }
  ? Q extends ZodMiniType
    ? output<Q>
    : undefined
  : undefined;
/** The validated path parameters of a route's requests, by name. */
type ParamsOf<R> = R extends { params?: infer P extends ParamsDef }
  ? { [K in keyof P]: output<P[K]> }
  : undefined;

/** The action a route takes: its validated inputs, and a User on a protected route. */
export type ActionOf<R extends RouteDef> = Action<
  BodyOf<R>,
  R extends { auth: true } ? User : undefined,
  QueryOf<R>,
  ParamsOf<R>
>;

/** What a route's action is given (for an action written apart from its serve call). */
export type ContextOf<R extends RouteDef> = Parameters<ActionOf<R>>[0];

/**
 * A Lambda handler for one route of the table: the shared HTTP layer around `action`, which
 * receives the validated body, query and path parameters and, on routes with `auth: true`, the
 * authenticated user. A protected route needs an authenticator and a public one takes none: the
 * types say so.
 */
export function createRouteStack<R extends RouteDef & { auth: false }>(
  route: R,
  config: Config,
  action: ActionOf<R>,
): LambdaHandler;
export function createRouteStack<R extends RouteDef & { auth: true }>(
  route: R,
  config: Config,
  action: ActionOf<R>,
  // Injected rather than imported, so that public routes do not bundle the user store.
  options: { authenticate: Authenticator },
): LambdaHandler;
export function createRouteStack(
  route: RouteDef,
  config: Config,
  // Each overload narrows what the action is given; here it is whatever the route sends it.
  action: Action<never, never, never, never>,
  options?: { authenticate: Authenticator },
): LambdaHandler {
  const run = action as Action<unknown, User | undefined, unknown, unknown>;
  const stack = middy<APIGatewayProxyEventV2, Reply, Error, RouteContext, Internal>();
  stack.use(accessLog(route));
  stack.use(ourErrors());
  stack.use(bodyLimit(config));
  // A page of another site is refused before its credential is even looked at.
  if (route.allowedOrigins) stack.use(allowedOrigin(route.allowedOrigins, config));
  // Authentication comes before parsing: strangers learn nothing about the body's rules, nor
  // which ids are well-formed.
  if (options) stack.use(authentication(options.authenticate, route, config));
  if (route.params) stack.use(validatePath(route));
  if (route.query) stack.use(validateQuery(route));
  if (route.body) {
    stack.use(mediaType(route));
    if (route.body.contentTypes.includes('application/json')) {
      stack.use(httpJsonBodyParser({ disableContentTypeError: true }));
    }
    if (route.body.contentTypes.includes('application/x-www-form-urlencoded')) {
      stack.use(httpUrlencodeBodyParser({ disableContentTypeError: true }));
    }
    stack.use(objectBody());
    stack.use(validateBody(route));
  }
  return stack.handler(async (event, lambda) =>
    run({
      body: event.body,
      query: lambda.query,
      params: lambda.params,
      user: lambda.user,
      scopes: lambda.scopes,
      requestId: requestIdOf(event),
      event,
      lambda,
      config,
    }),
  ) as unknown as LambdaHandler;
}
