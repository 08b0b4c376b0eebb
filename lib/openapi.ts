// The OpenAPI 3.1 document, generated from the route table. Its schemas are zod's own JSON
// Schema output (draft 2020-12, which OpenAPI 3.1 uses) of the very schemas that validate:
// request bodies in their input form (what a client may send), responses in their output form.
// Its parts are in openapi/: tags, headers, problem examples, schemas, and each operation.

import type { OpenAPIObject, OperationObject, SecuritySchemeObject } from 'openapi3-ts/oas31';
import { API_VERSION } from './api-version';
import { createPathMatcher } from './http/paths';
import { SCOPES } from './oauth/scopes';
import { HEADERS, type HeaderName } from './openapi/headers';
import { operation } from './openapi/operation';
import { schemaCollector } from './openapi/schemas';
import { TAGS } from './openapi/tags';
import { routes as routeTable } from './routes';
import type { RouteDef } from './routes/route';

export interface OpenApiOptions {
  /** The model names this deployment offers: `used_model` is documented as their enum. */
  models: readonly string[];
  /** The routes, by operationId; the whole route table by default. */
  routes?: Readonly<Record<string, RouteDef>>;
}

/** Builds the OpenAPI document of the given routes (the whole route table by default). */
export function buildOpenApiDocument(options: OpenApiOptions): OpenAPIObject {
  const routes = options.routes ?? routeTable;
  const schemas = schemaCollector(options.models);
  const usedHeaders = new Set<HeaderName>();
  const paths: Record<string, Record<string, OperationObject>> = {};
  // What a 405 on the path says it allows (HEAD wherever GET is), as path matching answers it.
  const matcher = createPathMatcher(Object.values(routes));
  const methods = (path: string) => {
    const match = matcher.match(path, 'TRACE');
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
      securitySchemes: securitySchemes(),
    },
  };
}

/** The ways to authenticate, as Swagger UI's Authorize dialog offers them. */
function securitySchemes(): Record<string, SecuritySchemeObject> {
  return {
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
          scopes: { ...SCOPES },
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
  };
}
