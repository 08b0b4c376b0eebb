// The HTTP layer every route shares, as one middy stack:
//   errors as problem+json + access log -> body limit -> bearer auth -> content type + parsing
//   -> zod validation -> the route's action.
// CORS is not here: API Gateway answers it for every route (see lib/http/cors.ts).
import middy, { type MiddlewareObj, type Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Authenticator } from '../auth/bearer';
import { type Config, ConfigError, loadConfig } from '../config';
import {
  BadRequestError,
  type FieldError,
  HttpError,
  misconfigured,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../errors';
import { appendLogKeys, logger } from '../logger';
import type { RouteDef } from '../routes';
import type { core, output, ZodMiniType } from '../schema';
import type { User } from '../users/store';
import { problemReply } from './problem';
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

// The user a request authenticated as, and its validated query, keyed by its event (middy hands
// the same object on).
const authenticated = new WeakMap<APIGatewayProxyEventV2, User>();
const queries = new WeakMap<APIGatewayProxyEventV2, unknown>();

type Internal = Record<string, unknown> & { startedAt?: number };
type HttpRequest = Request<APIGatewayProxyEventV2, Reply, Error, Context, Internal>;

const requestIdOf = (event: APIGatewayProxyEventV2) => event.requestContext?.requestId ?? 'unknown';

/** Turns errors into problem+json, logs one access line per request, tags the request id. */
function problemsAndAccessLog(route: RouteDef): MiddlewareObj<APIGatewayProxyEventV2, Reply> {
  const finish = (request: HttpRequest, error?: unknown) => {
    const requestId = requestIdOf(request.event);
    const status = request.response?.statusCode ?? 500;
    const line = {
      method: route.method,
      route: route.path,
      status,
      duration_ms: Date.now() - (request.internal.startedAt ?? Date.now()),
      user_id: authenticated.get(request.event)?.id,
    };
    if (status >= 500) {
      // The cause chain (SDK messages, stacks) goes to the log only, never to the client.
      logger.error('request failed', { ...line, error });
    } else if (error) {
      logger.info('request refused', {
        ...line,
        problem: error instanceof HttpError ? error.type : 'unknown',
      });
    } else {
      logger.info('request done', line);
    }
    if (request.response) request.response.headers['X-Request-Id'] = requestId;
  };

  return {
    before: (request) => {
      const internal = request.internal as Internal;
      internal.startedAt = Date.now();
      appendLogKeys({ request_id: requestIdOf(request.event) });
    },
    after: (request) => finish(request as HttpRequest),
    onError: (request) => {
      const error = asHttpError(request.error);
      request.response = problemReply(error, requestIdOf(request.event), {
        oauth2: route.oauth2Errors,
      });
      finish(request as HttpRequest, error);
    },
  };
}

/** Errors thrown by libraries, expressed in our terms. */
function asHttpError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof ConfigError) return misconfigured(error);
  return error;
}

/** 413 before anything is parsed, whether or not the client sent Content-Length. */
function bodyLimit(config: Config): MiddlewareObj<APIGatewayProxyEventV2, Reply> {
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

/** Checks the media type ourselves (415), then lets middy's parsers parse (400 when they fail). */
function parseBody(route: RouteDef): MiddlewareObj<APIGatewayProxyEventV2, Reply> {
  const accepted = route.body?.contentTypes ?? [];
  // Its typings lack disableContentTypeCheck (we checked the type above; it would refuse
  // upper-case media types and a bare `application/json;`).
  const json = httpJsonBodyParser({ disableContentTypeCheck: true } as never);
  const form = httpUrlencodeBodyParser();
  return {
    before: async (request) => {
      const { event } = request;
      const mediaType = (event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (!mediaType || !accepted.includes(mediaType as (typeof accepted)[number])) {
        throw new UnsupportedMediaTypeError([...accepted]);
      }
      if (!event.body) throw new BadRequestError('The request needs a body.');
      try {
        await (mediaType === 'application/json' ? json : form).before?.(request as never);
      } catch {
        // middy 6 answers malformed JSON with 415; it is a malformed body (400). Its error
        // carries the raw body as `cause`, which may hold a password: it is dropped here.
        throw new BadRequestError(
          mediaType === 'application/json'
            ? 'The body is not valid JSON.'
            : 'The body is not a valid URL-encoded form.',
        );
      }
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

function validateBody(route: RouteDef): MiddlewareObj<APIGatewayProxyEventV2, Reply> {
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
function validateQuery(route: RouteDef): MiddlewareObj<APIGatewayProxyEventV2, Reply> {
  return {
    before: ({ event }) => {
      if (!route.query) return;
      const parsed = route.query.safeParse(event.queryStringParameters ?? {});
      if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
      queries.set(event, parsed.data);
    },
  };
}

function authentication(authenticate: Authenticator): MiddlewareObj<APIGatewayProxyEventV2, Reply> {
  return {
    before: async (request) => {
      const user = await authenticate(request.event.headers?.authorization);
      authenticated.set(request.event, user);
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
  const stack = middy<APIGatewayProxyEventV2, Reply, Error, Context, Internal>();
  stack.use(problemsAndAccessLog(route));
  stack.use(bodyLimit(config));
  // Authentication comes before parsing: strangers learn nothing about the body's rules.
  if (options) stack.use(authentication(options.authenticate));
  if (route.query) stack.use(validateQuery(route));
  if (route.body) {
    stack.use(parseBody(route));
    stack.use(validateBody(route));
  }
  return stack.handler(async (event, lambda) =>
    run({
      body: event.body,
      query: queries.get(event),
      user: authenticated.get(event),
      requestId: requestIdOf(event),
      event,
      lambda,
      config,
    }),
  ) as LambdaHandler;
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
  return async (event, context) => {
    if (!handler) {
      try {
        handler = create(loadConfig());
      } catch (error) {
        logger.error('the function cannot start: invalid configuration', { error });
        return problemReply(asHttpError(error), requestIdOf(event));
      }
    }
    return handler(event, context);
  };
}
