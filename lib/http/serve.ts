// The one way through a function (as Powertools' Router.resolve): the function names itself and
// its area's routes, and hands one action per route the table says it serves, named as the
// route; the types refuse a missing or an extra action. Each event goes to its route's action
// (HEAD to the GET route's) through the shared HTTP layer (stack/route-stack.ts), which checks path
// parameters, query and body first; API Gateway's `$default` route (requests no route takes)
// gets the 404/405 problem, from the function that says it answers it.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Authenticator } from '../accounts/auth/bearer';
import type { Config } from '../config';
import { logger } from '../logger';
import type { FunctionName, RouteDef } from '../routes/route';
import { type LambdaHandler, LoggedFailure } from './entry';
import { createPathMatcher, servingRouteKey, unroutedError } from './paths';
import { type ActionOf, createRouteStack } from './stack/route-stack';

/** The routes of the group `G` that the function `F` serves, by name. */
export type Served<G, F extends FunctionName> = {
  [K in keyof G as G[K] extends { function: F } ? K : never]: G[K];
};

/** One action per route the function `F` serves, by the route's name. */
export type Actions<G, F extends FunctionName> = {
  [K in keyof Served<G, F>]: Served<G, F>[K] extends RouteDef ? ActionOf<Served<G, F>[K]> : never;
};

/** Whether a route the function `F` serves needs a token. */
type NeedsAuth<G, F extends FunctionName> = true extends {
  [K in keyof Served<G, F>]: Served<G, F>[K] extends { auth: true } ? true : false;
}[keyof Served<G, F>]
  ? true
  : false;

export interface ServeOptions {
  /** Checks the caller's token: needed when a route the function serves needs one. */
  authenticate?: Authenticator;
  /**
   * The whole route table, for the function that answers API Gateway's `$default` route: a
   * request no route takes gets 404 (unknown path) or 405 with Allow (wrong method).
   */
  unrouted?: readonly RouteDef[];
}

/** A function with a protected route needs an authenticator; one without takes none. */
type OptionsArg<G, F extends FunctionName> =
  NeedsAuth<G, F> extends true
    ? [options: ServeOptions & { authenticate: Authenticator }]
    : [options?: ServeOptions & { authenticate?: never }];

/**
 * The $default route's refusal: what API Gateway's own 404 would be, in our error shape, logged
 * and thrown for the invocation to answer.
 */
function unroutedRefusal(routes: readonly RouteDef[]) {
  const paths = createPathMatcher(routes);
  return async (event: APIGatewayProxyEventV2) => {
    const path = event.rawPath ?? '/';
    const method = event.requestContext.http.method;
    const match = paths.match(path, method);
    const error = unroutedError(match.kind === 'found' ? { kind: 'not-found' } : match, path);
    logger.info('request refused', {
      method,
      route: '$default',
      status: error.status,
      problem: error.type,
    });
    throw new LoggedFailure(error);
  };
}

/**
 * The handler of the function `name`: each event to the action of its route, among the
 * routes of `routes` the table says `name` serves (`actions` holds one per route, by name).
 * @throws Error at build when an action is missing or extra (what the types already refuse), or
 * a protected route has no authenticator; the handler throws for an event of a route it does
 * not serve (a deployment that routes it wrong: a 500 in the log).
 */
export function serve<const F extends FunctionName, G extends Record<string, RouteDef>>(
  name: F,
  routes: G,
  // An action of a route the function does not serve is an excess property of this object: a
  // type error where the object is written (and an error at build for one made elsewhere).
  actions: Actions<G, F>,
  config: Config,
  ...[options]: OptionsArg<G, F>
): LambdaHandler {
  const served = Object.entries(routes).filter(([, route]) => route.function === name);
  const given = actions as unknown as Record<string, ActionOf<RouteDef> | undefined>;
  const extra = Object.keys(given).filter(
    (key) => !served.some(([routeName]) => routeName === key),
  );
  if (extra.length > 0) throw new Error(`the ${name} function serves no route ${extra}`);
  const byRouteKey = new Map<string, LambdaHandler>();
  for (const [routeName, route] of served) {
    const action = given[routeName];
    if (!action) throw new Error(`the ${name} function has no action for ${routeName}`);
    const authenticate = options?.authenticate;
    if (route.auth && !authenticate)
      throw new Error(`${routeName} needs a token: no authenticator`);
    // The overloads of createRouteStack tie `auth` to an authenticator; checked just above.
    const build = createRouteStack as (...args: unknown[]) => LambdaHandler;
    const routeHandler = route.auth
      ? build(route, config, action, { authenticate })
      : build(route, config, action);
    byRouteKey.set(`${route.method} ${route.path}`, routeHandler);
  }
  const unrouted = options?.unrouted && unroutedRefusal(options.unrouted);
  return async (event, context) => {
    const routeHandler = byRouteKey.get(servingRouteKey(event.routeKey));
    if (routeHandler) return routeHandler(event, context);
    if (unrouted) return unrouted(event);
    throw new Error(`the ${name} function does not serve ${event.routeKey}`);
  };
}
