// What the middlewares of a route's stack share: the request as middy
// passes it along, and what each middleware found out about it for the ones after it.
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { User } from '../../accounts/users/store';
import type { Reply } from '../../reply';

/**
 * The Lambda context as the middlewares pass it on (middy's `request.context`): what they found
 * out about the request, for the ones after them and the action.
 */
export type RouteContext = Context & {
  user?: User;
  apiKeyId?: string;
  grantId?: string | undefined;
  /** An OAuth access token's scopes; undefined: every scope (an API key, a login token). */
  scopes?: readonly string[] | undefined;
  query?: unknown;
  params?: unknown;
};

export type Internal = Record<string, unknown> & { startedAt?: number };
export type HttpRequest = Request<APIGatewayProxyEventV2, Reply, Error, RouteContext, Internal>;
export type Middleware = MiddlewareObj<APIGatewayProxyEventV2, Reply, Error, RouteContext>;
