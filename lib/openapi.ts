// The OpenAPI 3.1 document, generated from the route table. Its schemas are zod's own JSON
// Schema output (draft 2020-12, which OpenAPI 3.1 uses) of the very schemas that validate:
// request bodies in their input form (what a client may send), responses in their output form.
import { isDeepStrictEqual } from 'node:util';
import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
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
} from './errors';
import { problemReply, routeErrorReply } from './http/problem';
import { problemSchema } from './http/problem-schema';
import { createRouter } from './http/router';
import { type Json, toJsonSchema } from './json-schema';
import { oauthErrorSchema } from './oauth/schemas';
import { routes as routeTable } from './routes';
import { API_VERSION, type RouteDef, type RouteHeader } from './routes/route';
import type * as z from './schema';
import { youTubeBadResponse } from './youtube/errors';

export interface OpenApiOptions {
  /** The model names this deployment offers: `used_model` is documented as their enum. */
  models: readonly string[];
  /** The routes, by operationId; the whole route table by default. */
  routes?: Readonly<Record<string, RouteDef>>;
}

const TAGS: Record<RouteDef['tag'], { name: string; description: string }> = {
  service: { name: 'Service', description: 'Whether the service runs' },
  accounts: {
    name: 'Accounts',
    description: 'Registration, log-in (bearer tokens), API keys and deleting an account',
  },
  summaries: { name: 'Summaries', description: 'Summaries of YouTube videos' },
  questions: {
    name: 'Questions',
    description: 'Questions about YouTube videos, answered with citations of their moments',
  },
  agents: {
    name: 'Agents',
    description:
      'The Model Context Protocol endpoint: summaries, transcripts and questions as tools for AI agents',
  },
  oauth: {
    name: 'OAuth',
    description:
      'How AI apps (claude.ai, Claude Desktop, ChatGPT, MCP clients) connect to /mcp for a person: OAuth 2.1 with PKCE, and the person’s connected apps',
  },
  docs: { name: 'Documentation', description: 'This document and the interactive docs' },
  page: { name: 'Page', description: 'The web page for people, at /' },
};

const HEADERS = {
  'X-Request-Id': {
    description: "Identifies the request: the same as a problem's request_id and in every log line",
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate': {
    description: 'The bearer challenge of RFC 6750 (error="invalid_token" for a bad token)',
    required: true,
    schema: { type: 'string' },
  },
  Allow: {
    description: 'The methods the path takes',
    required: true,
    schema: { type: 'string' },
  },
  Location: {
    description:
      'Where to go next: the job to poll (GET /summaries/{id}); for GET /oauth/authorize, back to the app',
    required: true,
    schema: { type: 'string', examples: ['/summaries/c2hvcnQtaWQtZXhhbXBsZQ'] },
  },
  'Content-Location': {
    description: 'The job of this summary in GET /summaries (the history)',
    required: true,
    schema: { type: 'string' },
  },
  'Preference-Applied': {
    description: 'RFC 7240: the Prefer preferences honoured (respond-async, wait=N)',
    required: true,
    schema: { type: 'string' },
  },
} satisfies Record<string, HeaderObject>;

type HeaderName = keyof typeof HEADERS;

/** The headers a response of this status always carries. */
function headerNames(status: number): HeaderName[] {
  const names: HeaderName[] = ['X-Request-Id'];
  if (status === 401) names.push('WWW-Authenticate');
  if (status === 405) names.push('Allow');
  if (status === 429 || status === 503) names.push('Retry-After');
  return names;
}

/**
 * A response's headers: the status's own, and the route's (a reference to the component when
 * always there, else the header inline, not required). `used` collects the referenced names.
 */
function responseHeaders(
  status: number,
  own: Partial<Record<RouteHeader, 'always' | 'sometimes'>>,
  used: Set<HeaderName>,
): Record<string, HeaderObject | ReferenceObject> {
  const headers: Record<string, HeaderObject | ReferenceObject> = {};
  const reference = (name: HeaderName) => {
    used.add(name);
    return { $ref: `#/components/headers/${name}` };
  };
  for (const name of headerNames(status)) headers[name] = reference(name);
  for (const [name, when] of Object.entries(own) as [RouteHeader, 'always' | 'sometimes'][]) {
    headers[name] = when === 'always' ? reference(name) : { ...HEADERS[name], required: false };
  }
  return headers;
}

// The request id of the examples: API Gateway's form.
const EXAMPLE_REQUEST_ID = 'Xq3dAjmLIAMEbJQ=';

/**
 * The problem a status usually answers, for a route that names none (ResponseDef.example):
 * made by the same error classes and problemReply() as real answers, so examples cannot drift.
 */
function usualProblem(status: number, route: RouteDef, allowed: readonly string[]): unknown {
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
function problemExample(error: unknown, route: RouteDef, status: number): Json {
  const reply =
    status === 405
      ? problemReply(error, EXAMPLE_REQUEST_ID)
      : routeErrorReply(route, error, EXAMPLE_REQUEST_ID);
  return JSON.parse(String(reply.body)) as Json;
}

/** Path parameters of an API Gateway style path, e.g. `{file}` in `/docs/{file}`. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

/**
 * Turns zod schemas into the document's schemas, collecting every schema with an `id` into
 * components (zod puts them in `$defs`; here they are referenced as `#/components/schemas/<id>`).
 */
function schemaCollector(models: readonly string[]) {
  const components: Record<string, SchemaObject> = {};

  const override = (io: 'input' | 'output') => (ctx: { jsonSchema: Json }) => {
    const { jsonSchema } = ctx;
    // "One of these fields is required", said as anyOf of bare `required` lists (TokenRequest),
    // becomes one whole object per alternative: the same rule, but code generators then type
    // the body as a union of complete objects (a bare `required` list becomes `unknown`).
    const alternatives = jsonSchema.anyOf as Json[] | undefined;
    const bare = (alternative: Json) => Object.keys(alternative).join() === 'required';
    if (jsonSchema.properties && alternatives?.every(bare)) {
      const { anyOf: _, ...whole } = jsonSchema;
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      jsonSchema.anyOf = alternatives.map((alternative) => ({
        ...whole,
        required: [...(whole.required ?? []), ...alternative.required],
      }));
    }
    // A field with a default is optional to send. openapi-typescript (by default) and others
    // make any field with a `default` required in the types they generate, so in request
    // schemas the default is stated in words instead.
    if (io === 'input' && 'default' in jsonSchema) {
      const value = JSON.stringify(jsonSchema.default);
      delete jsonSchema.default;
      const said = jsonSchema.description ? `${jsonSchema.description.replace(/\.?$/, '.')} ` : '';
      jsonSchema.description = `${said}Defaults to ${value}.`;
    }
  };

  return {
    components,
    /** The document schema of `schema` (a $ref when it has an id). */
    schema(schema: z.ZodMiniType, io: 'input' | 'output'): SchemaObject | ReferenceObject {
      const {
        $defs = {},
        $schema: _,
        ...root
      } = toJsonSchema(schema, { io, models, override: override(io) });
      const refs = (value: unknown) =>
        JSON.parse(
          JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'),
        ) as SchemaObject;
      for (const [id, definition] of Object.entries($defs as Record<string, unknown>)) {
        const converted = refs(definition);
        // One id, one schema: a schema used in both directions must look the same in both.
        if (components[id] && !isDeepStrictEqual(components[id], converted)) {
          throw new Error(`schema ${id} differs between requests and responses`);
        }
        components[id] = converted;
      }
      return refs(root);
    },
  };
}

function operation(
  operationId: string,
  route: RouteDef,
  schemas: ReturnType<typeof schemaCollector>,
  usedHeaders: Set<HeaderName>,
  allowed: readonly string[],
): OperationObject {
  const problem = schemas.schema(problemSchema, 'output');
  const oauthError = schemas.schema(oauthErrorSchema, 'output');
  const responses: Record<string, ResponseObject> = {};
  const statuses = { ...route.responses };
  if (route.auth) statuses[401] ??= { description: 'Missing, invalid or expired bearer token' };
  for (const [code, response] of Object.entries(statuses)) {
    const status = Number(code);
    let content: ResponseObject['content'];
    if (status >= 400) {
      const error = response.example ?? usualProblem(status, route, allowed);
      // An OAuth endpoint's errors are OAuth's JSON; a wrong method is the router's problem.
      content =
        route.oauthErrors && status !== 405
          ? {
              'application/json': {
                schema: oauthError,
                example: problemExample(error, route, status),
              },
            }
          : {
              'application/problem+json': {
                schema: problem,
                example: problemExample(error, route, status),
              },
            };
      // A page for people (GET /oauth/authorize's error page) besides the problem.
      for (const type of response.contentTypes ?? [])
        content[type] = { schema: { type: 'string' } };
    } else {
      const typed: NonNullable<ResponseObject['content']> = response.schema
        ? { 'application/json': { schema: schemas.schema(response.schema, 'output') } }
        : {};
      const texts = Object.fromEntries(
        (response.contentTypes ?? []).map((type) => [
          type,
          { schema: { type: 'string' as const } },
        ]),
      );
      if (response.schema || response.contentTypes) content = { ...typed, ...texts };
    }
    responses[code] = {
      description: response.description,
      headers: responseHeaders(status, response.headers ?? {}, usedHeaders),
      // A response without a body (204) has no content at all.
      ...(content ? { content } : {}),
    };
  }
  const parameters: ParameterObject[] = pathParameters(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: route.params?.[name] ? schemas.schema(route.params[name], 'input') : { type: 'string' },
  }));
  if (route.query) {
    const query = schemas.schema(route.query, 'input') as SchemaObject;
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema as SchemaObject;
      parameters.push({
        name,
        in: 'query',
        required: query.required?.includes(name) ?? false,
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  for (const [name, header] of Object.entries(route.headers ?? {})) {
    parameters.push({
      name,
      in: 'header',
      required: false,
      description: header.description,
      schema: { type: 'string', examples: [...header.examples] },
    });
  }
  return {
    operationId,
    summary: route.summary,
    description: route.description,
    tags: [TAGS[route.tag].name],
    // Any of these: a log-in, a pasted access token, or (except where keys are managed) a key;
    // at /mcp, an OAuth access token for it or a key.
    security: !route.auth
      ? []
      : route.mcpTokens
        ? [{ mcpOAuth: [] }, { apiKeyAuth: [] }]
        : [{ oauth2: [] }, { bearerAuth: [] }, ...(route.loginOnly ? [] : [{ apiKeyAuth: [] }])],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              route.body.contentTypes.map((type) => [
                type,
                { schema: schemas.schema(route.body?.schema as z.ZodMiniType, 'input') },
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/** Builds the OpenAPI document of the given routes (the whole route table by default). */
export function buildOpenApiDocument(options: OpenApiOptions): OpenAPIObject {
  const routes = options.routes ?? routeTable;
  const schemas = schemaCollector(options.models);
  const usedHeaders = new Set<HeaderName>();
  const paths: Record<string, Record<string, OperationObject>> = {};
  // What a 405 on the path says it allows (HEAD wherever GET is), as the router answers it.
  const router = createRouter(Object.values(routes));
  const methods = (path: string) => {
    const match = router.match(path, 'TRACE');
    return match.kind === 'method-not-allowed' ? match.allowed : [];
  };
  for (const [operationId, route] of Object.entries(routes)) {
    paths[route.path] = {
      ...paths[route.path],
      [route.method.toLowerCase()]: operation(
        operationId,
        route,
        schemas,
        usedHeaders,
        methods(route.path),
      ),
    };
  }
  const tags = [...new Set(Object.values(routes).map((route) => route.tag))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'tubesum',
      version: API_VERSION,
      description:
        'Summaries of YouTube videos from their transcripts, for registered users. ' +
        'Register, then use Authorize (username or email and password) to try the protected routes. ' +
        'Every error is RFC 9457 problem+json with a request_id.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    tags: tags.map((tag) => TAGS[tag]),
    paths,
    components: {
      schemas: schemas.components,
      // Only the headers some response refers to (an unused component is a lint warning).
      headers: Object.fromEntries(
        Object.entries(HEADERS).filter(([name]) => usedHeaders.has(name as HeaderName)),
      ),
      // The log-in first: Swagger UI's Authorize dialog shows the schemes in this order.
      securitySchemes: {
        // Lets Swagger UI's Authorize button log in with username (or email) and password.
        oauth2: {
          type: 'oauth2',
          description: 'Log in with your username (or email) and password (POST /token)',
          flows: { password: { tokenUrl: 'token', scopes: {} } },
        },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Or paste an access_token from POST /token',
        },
        // What MCP clients with OAuth use at /mcp (discovery: its 401's WWW-Authenticate).
        mcpOAuth: {
          type: 'oauth2',
          description:
            'OAuth 2.1 for /mcp: authorization code with PKCE (S256), public clients (dynamic registration at oauth/register, or a client ID metadata document URL); the access token is for /mcp only',
          flows: {
            authorizationCode: {
              authorizationUrl: 'oauth/authorize',
              tokenUrl: 'oauth/token',
              refreshUrl: 'oauth/token',
              scopes: {},
            },
          },
        },
        // The same header as bearerAuth; a scheme of its own so that each operation says
        // whether it takes keys (the /api-keys routes do not).
        apiKeyAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'tsk_ API key',
          description:
            'Or paste an API key from POST /api-keys (tsk_...); works everywhere but the /api-keys routes',
        },
      },
    },
  };
}
