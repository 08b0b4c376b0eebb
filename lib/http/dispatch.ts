// One function serving several routes: its handler per route, chosen by the event's routeKey
// (`HEAD /path` served by `GET /path`).
import type { RouteDef } from '../routes/route';
import type { LambdaHandler } from './handler';
import { servingRouteKey } from './router';

/** The handler that gives each event to its route's handler. */
export function dispatch(
  functionName: string,
  routes: readonly (readonly [RouteDef, LambdaHandler])[],
): LambdaHandler {
  const byRouteKey = new Map(
    routes.map(([route, handler]) => [`${route.method} ${route.path}`, handler]),
  );
  return async (event, context) => {
    const handler = byRouteKey.get(servingRouteKey(event.routeKey));
    if (!handler) throw new Error(`the ${functionName} function does not serve ${event.routeKey}`);
    return handler(event, context);
  };
}
