// The HTTP layer every route shares, as one middy stack:
//   problem+json and access log -> our errors -> body limit
//   -> bearer auth -> query -> media type -> middy's body parsers -> zod validation -> action.
// Errors leave as RFC 9457 problems made by the problem codec (lib/problems.ts: status, `expose`
// below 500, a ConfigError's 503); the access log logs every 5xx with its cause. Every reply,
// whatever made it, leaves through lib/http/exit.ts. CORS is not here: API Gateway answers it
// for every route (cors.ts).
import middy, { type MiddlewareObj, type Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { loginTokenRequired } from '../api-keys/errors';
import type { Authenticator } from '../auth/bearer';
import { type Config, loadConfig } from '../config';
import {
  BadRequestError,
  type FieldError,
  ForbiddenError,
  HttpError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../errors';
import { appendLogKeys, logger, resetLogKeys } from '../logger';
import type { RouteDef } from '../routes/route';
import type { core, output, ZodMiniType } from '../schema';
import type { User } from '../users/store';
import { exit, requestIdOf } from './exit';
import { requestOrigin } from './origin';
import { problemReply, routeErrorReply } from './problem';
import type { Reply } from './reply';

/** A Lambda handler of an API Gateway HTTP API route (payload format 2.0). */
export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<Reply>;

export interface RequestContext<Body, U extends User | undefined, Query = undefined> {
  body: Body;
  /** The validated query string (routes with a `query` schema). */
  query: Query;
  /** The authenticated user: a User on routes with `auth: true`, undefined on the others. */
  user: U;
  requestId: string;
  event: APIGatewayProxyEventV2;
  lambda: Context;
  config: Config;
}

type Action<Body, U extends User | undefined, Query = undefined> = (
  context: RequestContext<Body, U, Query>,
) => Promise<Reply>;

/** The validated body of a route's requests. */
type BodyOf<R> = R extends RouteDef<infer B> ? output<B> : never;
/** The validated query of a route's requests (undefined for routes that take none). */
type QueryOf<R> = R extends { query?: infer Q }
  ? Q extends ZodMiniType
    ? output<Q>
    : undefined
  : undefined;

/**
 * The Lambda context as the middlewares pass it on (middy's `request.context`): what they found
 * out about the request, for the ones after them and the action.
 */
type RouteContext = Context & {
  user?: User;
  apiKeyId?: string;
  grantId?: string | undefined;
  query?: unknown;
};

type Internal = Record<string, unknown> & { startedAt?: number };
type HttpRequest = Request<APIGatewayProxyEventV2, Reply, Error, RouteContext, Internal>;
type Middleware = MiddlewareObj<APIGatewayProxyEventV2, Reply, Error, RouteContext>;

/** The outermost layer: the problem+json reply of an error, and one access line per request. */
function problemsAndAccessLog(route: RouteDef): Middleware {
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
function ourErrors(): Middleware {
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

/** 413 before anything is parsed, whether or not the client sent Content-Length. */
function bodyLimit(config: Config): Middleware {
  return {
    before: ({ event }) => {
      const declared = Number(event.headers?.['content-length'] ?? 0);
      const actual = event.body
        ? event.isBase64Encoded
          ? Buffer.from(event.body, 'base64').length
          : Buffer.byteLength(event.body)
        : 0;
      if (declared > config.MAX_BODY_BYTES || actual > config.MAX_BODY_BYTES) {
        throw new PayloadTooLargeError(config.MAX_BODY_BYTES);
      }
    },
  };
}

/**
 * The media type (415 naming the accepted ones) and a body at all (400), written back in the
 * canonical form middy's parsers recognise (`APPLICATION/JSON;` is JSON too).
 */
function mediaType(route: RouteDef): Middleware {
  const accepted = route.body?.contentTypes ?? [];
  return {
    before: ({ event }) => {
      const type = (event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (!type || !accepted.includes(type as (typeof accepted)[number])) {
        throw new UnsupportedMediaTypeError([...accepted]);
      }
      if (!event.body) throw new BadRequestError('The request needs a body.');
      event.headers = { ...event.headers, 'content-type': type };
    },
  };
}

/** What the parsers left must be an object (not an array, a string or null). */
function objectBody(): Middleware {
  return {
    before: ({ event }) => {
      const body: unknown = event.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new BadRequestError('The body must be a JSON object.');
      }
    },
  };
}

/** zod issues as field errors a person can act on. */
export function fieldErrors(error: core.$ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.join('.') || 'body',
    message: /received undefined/.test(issue.message) ? 'is required' : issue.message,
  }));
}

function validateBody(route: RouteDef): Middleware {
  return {
    before: ({ event }) => {
      const schema = route.body?.schema;
      if (!schema) return;
      const parsed = schema.safeParse(event.body);
      if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
      // Unknown fields (role, password_hash, __proto__...) are gone after parsing.
      (event as { body: unknown }).body = parsed.data;
    },
  };
}

/** The query string against the route's schema (422 naming each bad parameter). */
function validateQuery(route: RouteDef): Middleware {
  return {
    before: ({ event, context }) => {
      if (!route.query) return;
      const parsed = route.query.safeParse(event.queryStringParameters ?? {});
      if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
      context.query = parsed.data;
    },
  };
}

/**
 * What a login-only route answers a request with an API key: the 403 its table entry documents
 * (login-token-required, with a detail about that route), made anew, so that the document shows
 * exactly what is answered; the API keys' own problem for a route that documents none.
 */
function apiKeyRefusal(route: RouteDef): HttpError {
  const documented = route.responses[403]?.example;
  return documented
    ? new ForbiddenError(documented.type, documented.message)
    : loginTokenRequired();
}

/** The caller, and on login-only routes (key management, deletion) a 403 for an API key. */
function authentication(authenticate: Authenticator, route: RouteDef, config: Config): Middleware {
  return {
    before: async (request) => {
      const principal = await authenticate(request.event.headers?.authorization, {
        origin: requestOrigin(config, request.event),
      });
      request.context.user = principal.user;
      request.context.apiKeyId = principal.apiKeyId;
      request.context.grantId = principal.grantId;
      if (principal.apiKeyId !== undefined && route.loginOnly) throw apiKeyRefusal(route);
    },
  };
}

/**
 * A Lambda handler for one route of the table: the shared HTTP layer around `action`, which
 * receives the validated body and, on routes with `auth: true`, the authenticated user. A
 * protected route needs an authenticator and a public one takes none: the types say so.
 */
export function createHandler<R extends RouteDef & { auth: false }>(
  route: R,
  config: Config,
  action: Action<BodyOf<R>, undefined, QueryOf<R>>,
): LambdaHandler;
export function createHandler<R extends RouteDef & { auth: true }>(
  route: R,
  config: Config,
  action: Action<BodyOf<R>, User, QueryOf<R>>,
  // Injected rather than imported, so that public routes do not bundle the user store.
  options: { authenticate: Authenticator },
): LambdaHandler;
export function createHandler(
  route: RouteDef,
  config: Config,
  // Each overload narrows what the action is given; here it is whatever the route sends it.
  action: Action<never, never, never>,
  options?: { authenticate: Authenticator },
): LambdaHandler {
  const run = action as Action<unknown, User | undefined, unknown>;
  const stack = middy<APIGatewayProxyEventV2, Reply, Error, RouteContext, Internal>();
  stack.use(problemsAndAccessLog(route));
  stack.use(ourErrors());
  stack.use(bodyLimit(config));
  // Authentication comes before parsing: strangers learn nothing about the body's rules.
  if (options) stack.use(authentication(options.authenticate, route, config));
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
      user: lambda.user,
      requestId: requestIdOf(event),
      event,
      lambda,
      config,
    }),
  ) as unknown as LambdaHandler;
}

/**
 * One invocation as every function serves it: the log keys of the request alone (the keys of
 * the invocation before are reset, as Powertools' injectLambdaContext({ resetKeys: true })
 * does), a crash answered with the opaque 500 problem, and the reply through the one exit.
 */
export function invocation(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    const requestId = requestIdOf(event);
    resetLogKeys();
    appendLogKeys({ request_id: requestId });
    try {
      return exit(await handler(event, context), requestId);
    } catch (error) {
      logger.error('request failed', { error });
      return exit(problemReply(error, requestId), requestId);
    }
  };
}

/**
 * The Lambda entry point of a function module: `create` builds its handler from the
 * environment's Config on the instance's first event, and that handler serves every later one.
 * (Importing a function module thus reads nothing: the local host and the tests call `create`
 * with Configs of their own.) An invalid environment answers 503 server-misconfigured, and is
 * read again on the next event.
 */
export function lambdaEntry(create: (config: Config) => LambdaHandler): LambdaHandler {
  let handler: LambdaHandler | undefined;
  return invocation(async (event, context) => {
    if (!handler) {
      try {
        handler = create(loadConfig());
      } catch (error) {
        logger.error('the function cannot start: invalid configuration', { error });
        return problemReply(error, requestIdOf(event));
      }
    }
    return handler(event, context);
  });
}
