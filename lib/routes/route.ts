// What a route is, and what every area of the route table shares: the route's type, route(), the
// problems every route answers, the functions' names. Each area's module (accounts.ts,
// summaries.ts, ...) holds its own routes, so that a function bundles only its own; index.ts
// assembles the whole table for those that need all of it (the OpenAPI document, the local host,
// the CDK stack). Only plain objects are made here at import, so a bundle drops what it does not
// use (video.ts holds the problems with examples, which are errors made at import).
// Request schemas validate the bodies and are documented in their input form; response schemas
// are documented in their output form.
import type { HttpError } from '../errors';
import type * as z from '../schema';

/**
 * Every Lambda, by name: each is `functions/[area/]<name>.ts` exporting `handler`, which Lambda
 * calls. Routes lead to all of them but the worker.
 */
export type FunctionName =
  | 'health'
  | 'register'
  | 'token'
  | 'account'
  | 'summarize'
  | 'summaries'
  | 'collections'
  | 'collection-ask'
  | 'api-keys'
  | 'ask'
  | 'mcp'
  | 'site'
  | 'oauth-metadata'
  | 'oauth-clients'
  | 'oauth-token'
  | 'connected-apps'
  | 'worker';

/** The function no route leads to: it consumes the job queue. */
export const WORKER = 'worker' satisfies FunctionName;

/**
 * The function of API Gateway's `$default` route (requests no route takes): it answers the 404/405
 * problem, instead of API Gateway's bare `{"message":"Not Found"}`; the local host sends it the
 * same requests.
 */
export const UNROUTED_FUNCTION: FunctionName = 'site';

export type ContentType = 'application/json' | 'application/x-www-form-urlencoded';

/** Response headers a route sets itself (the ones every response of a status carries, such as
 * X-Request-Id or a 429's Retry-After, are added by the OpenAPI document). */
export type RouteHeader =
  | 'Location'
  | 'Content-Location'
  | 'Retry-After'
  | 'Preference-Applied'
  | 'WWW-Authenticate';

export interface ResponseDef {
  description: string;
  /** The JSON body; problems (4xx/5xx) always have the Problem schema; none: no body (204). */
  schema?: z.ZodMiniType;
  /** Media types of a body that is not JSON (HTML, scripts, styles), documented as text. */
  contentTypes?: readonly string[];
  /** Headers this response carries: always, or only in some cases. */
  headers?: Partial<Record<RouteHeader, 'always' | 'sometimes'>>;
  /**
   * A problem's example in the document: the error this route answers most often with this
   * status (by default, the document gives the status's usual one).
   */
  example?: HttpError;
}

/** A request header a route reads (documented; its handler parses it). */
export interface HeaderDef {
  description: string;
  examples: readonly string[];
}

/** Schemas of a route's path parameters, by name. */
export type ParamsDef = Record<string, z.ZodMiniType>;

export interface RouteDef<
  B extends z.ZodMiniType = z.ZodMiniType,
  Q extends z.ZodMiniType = z.ZodMiniType,
  P extends ParamsDef = ParamsDef,
> {
  method: 'GET' | 'POST' | 'DELETE';
  /** API Gateway path syntax: `/docs/{file}`. */
  path: string;
  /** The function that serves it. */
  function: Exclude<FunctionName, typeof WORKER>;
  /** Needs `Authorization: Bearer <token>`: an access token from POST /token or an API key. */
  auth: boolean;
  /**
   * Takes OAuth access tokens for /mcp (and API keys) instead of login tokens from POST /token:
   * the MCP endpoint, an OAuth protected resource.
   */
  mcpTokens?: boolean;
  /**
   * Checks a browser's `Origin` before anything else reads the request: a request with none, with
   * the deployment's own origin or with one of this setting's is taken, any other refused with
   * 403 origin-not-allowed (MCP's Streamable HTTP transport, against DNS rebinding).
   */
  allowedOrigins?: 'MCP_ALLOWED_ORIGINS';
  /**
   * Needs an access token: an API key is refused with 403 login-token-required (the routes that
   * manage API keys, and DELETE /account), the problem the route documents as its 403 example.
   * Only on routes with `auth: true`.
   */
  loginOnly?: boolean;
  summary: string;
  description: string;
  tag:
    | 'service'
    | 'accounts'
    | 'summaries'
    | 'collections'
    | 'questions'
    | 'agents'
    | 'oauth'
    | 'docs'
    | 'page';
  body?: { schema: B; contentTypes: readonly ContentType[] };
  /**
   * Schemas of path parameters (plain strings when absent), checked before the action runs: a
   * value they refuse names nothing, and is answered with the route's 404.
   */
  params?: P;
  /** The query string's parameters, one object schema (validated: 422 when they fail). */
  query?: Q;
  /** Request headers the route reads, by name. */
  headers?: Record<string, HeaderDef>;
  responses: Record<number, ResponseDef>;
  /**
   * Problems also carry RFC 6749's `error` and `error_description` (an OAuth2 token endpoint's
   * error shape), which Swagger UI's Authorize dialog shows.
   */
  oauth2Errors?: boolean;
  /**
   * An endpoint of the OAuth authorization server (token, registration, revocation): its errors
   * are OAuth's JSON (`error`, `error_description`), not problems, and a request its checks
   * refuse (body, media type, fields) is a 400 with this code.
   */
  oauthErrors?: 'invalid_request' | 'invalid_client_metadata';
}

/**
 * A route, keeping in its type its body, query and path-parameter schemas, whether it needs a
 * token, and the function that serves it (serve() asks that function for an action
 * per route it serves).
 */
export const route = <
  B extends z.ZodMiniType,
  const A extends boolean,
  const F extends Exclude<FunctionName, typeof WORKER>,
  Q extends z.ZodMiniType = z.ZodMiniType,
  // biome-ignore lint/complexity/noBannedTypes: a route without path parameters has none
  P extends ParamsDef = {},
>(
  def: Omit<RouteDef<B, Q, P>, 'auth' | 'function'> & { auth: A; function: F },
): RouteDef<B, Q, P> & { auth: A; function: F } => def;

// Problems every route can answer, whatever its function: a wrong method on its path (with
// Allow), and a body over the limit (413 is checked before anything else, even on GETs).
export const anyRoute = {
  405: { description: 'The path does not take this method; Allow lists the ones it does' },
  413: { description: 'Body larger than the limit' },
} satisfies Record<number, ResponseDef>;

// ...and every route served through the shared HTTP layer.
export const handled = {
  ...anyRoute,
  500: { description: 'Unexpected error (the log has it under request_id)' },
  503: {
    description: 'A dependency is unavailable or the server is misconfigured; see Retry-After',
  },
} satisfies Record<number, ResponseDef>;

// ...and every route with a body.
export const withBody = {
  ...handled,
  400: { description: 'Malformed body (not JSON or a form, not an object, empty)' },
  415: { description: 'Unsupported Content-Type' },
  422: { description: 'Invalid fields (see errors)' },
} satisfies Record<number, ResponseDef>;
