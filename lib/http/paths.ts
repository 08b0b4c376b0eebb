// Matching a request against the route table, as API Gateway does: exact paths and `{param}`
// segments. Shared by the local host and the deployed `$default` route, so unknown paths and
// wrong methods get the same 404/405 problem everywhere. HEAD is served wherever GET is
// (RFC 9110 9.3.2): the GET route answers it, and the server sends its headers without the body.

import { type HttpError, MethodNotAllowedError, NotFoundError } from '../errors';
import type { RouteDef } from '../routes/route';

export type RouteMatch =
  | { kind: 'found'; route: RouteDef; pathParameters: Record<string, string> | undefined }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

interface Compiled {
  route: RouteDef;
  pattern: RegExp;
  params: string[];
}

function compile(route: RouteDef): Compiled {
  const params: string[] = [];
  const source = route.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const param = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (param) {
        params.push(param);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { route, pattern: new RegExp(`^${source}$`), params };
}

/** A matcher over `routes`; results per path are remembered (bounded). */
export function createPathMatcher(routes: readonly RouteDef[]) {
  const compiled = routes.map(compile);
  const byPath = new Map<string, { entry: Compiled; match: RegExpExecArray }[]>();

  const candidates = (path: string) => {
    let found = byPath.get(path);
    if (!found) {
      found = [];
      for (const entry of compiled) {
        const match = entry.pattern.exec(path);
        if (match) found.push({ entry, match });
      }
      // Remember only matching paths, so unknown ones cannot grow the map.
      if (found.length > 0 && byPath.size < 10_000) byPath.set(path, found);
    }
    return found;
  };

  return {
    /**
     * The route for a path (without query string) and method, or why there is none. A HEAD
     * request gets the path's GET route.
     */
    match(path: string, method: string): RouteMatch {
      const found = candidates(path);
      if (found.length === 0) return { kind: 'not-found' };
      const wanted = method.toUpperCase();
      const served = wanted === 'HEAD' ? 'GET' : wanted;
      const hit = found.find(({ entry }) => entry.route.method === served);
      if (!hit) return { kind: 'method-not-allowed', allowed: allowedMethods(found) };
      const { params, route } = hit.entry;
      let pathParameters: Record<string, string> | undefined;
      try {
        pathParameters =
          params.length > 0
            ? Object.fromEntries(
                params.map((name, i) => [name, decodeURIComponent(hit.match[i + 1] ?? '')]),
              )
            : undefined;
      } catch {
        // A malformed percent-escape (`/docs/%ff`) names nothing that exists.
        return { kind: 'not-found' };
      }
      return { kind: 'found', route, pathParameters };
    },
  };
}

/** The methods a path takes, as `Allow` lists them: HEAD wherever GET is. */
function allowedMethods(found: readonly { entry: Compiled }[]): string[] {
  const methods: string[] = [];
  for (const { entry } of found) {
    methods.push(entry.route.method);
    if (entry.route.method === 'GET') methods.push('HEAD');
  }
  return methods;
}

/**
 * The routeKey of the route table that serves an event's routeKey: `HEAD /path` (API Gateway's
 * routes are per method, so a HEAD route of its own reaches the function) is served by
 * `GET /path`; any other routeKey by itself.
 */
export function servingRouteKey(routeKey: string): string {
  return routeKey.startsWith('HEAD ') ? `GET ${routeKey.slice('HEAD '.length)}` : routeKey;
}

/** The problem for a request no route takes: 404 for an unknown path, 405 (with Allow) for a wrong method. */
export function unroutedError(
  match: Exclude<RouteMatch, { kind: 'found' }>,
  path: string,
): HttpError {
  return match.kind === 'not-found'
    ? new NotFoundError(`No route for ${path.slice(0, 200)}.`)
    : new MethodNotAllowedError(match.allowed);
}
