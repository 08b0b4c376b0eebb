// The OpenAPI 3.1 document, generated from the route table and its zod schemas.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { problemSchema, type RouteDef, routeList } from './routes';

const TAGS = {
  service: 'Service',
  accounts: 'Accounts',
  summaries: 'Summaries',
  docs: 'Documentation',
} as const;

/** Path parameters of an API Gateway style path, e.g. `{file}` in `/docs/{file}`. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

function responseContent(status: number, response: RouteDef['responses'][number]) {
  if (status >= 400) {
    return { 'application/problem+json': { schema: problemSchema } };
  }
  if (response.schema) return { 'application/json': { schema: response.schema } };
  return { [response.contentType ?? 'application/json']: { schema: z.string() } };
}

function register(registry: OpenAPIRegistry, route: RouteDef) {
  const params = pathParameters(route.path);
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => [
      status,
      { description: response.description, content: responseContent(Number(status), response) },
    ]),
  );
  if (route.auth) {
    responses['401'] ??= {
      description: 'Missing, invalid or expired bearer token',
      content: responseContent(401, { description: '' }),
    };
  }
  registry.registerPath({
    method: route.method === 'GET' ? 'get' : 'post',
    path: route.path,
    summary: route.summary,
    description: route.description,
    tags: [TAGS[route.tag]],
    security: route.auth ? [{ bearerAuth: [] }, { oauth2: [] }] : [],
    request: {
      ...(params.length > 0
        ? { params: z.object(Object.fromEntries(params.map((name) => [name, z.string()]))) }
        : {}),
      ...(route.body
        ? {
            body: {
              required: true,
              content: Object.fromEntries(
                route.body.contentTypes.map((type) => [type, { schema: route.body?.schema }]),
              ),
            },
          }
        : {}),
    },
    responses,
  });
}

/** Builds the OpenAPI document for the given routes (all of the table by default). */
export function buildOpenApiDocument(routes: readonly RouteDef[] = routeList) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access_token from POST /token',
  });
  // Lets Swagger UI's Authorize button log in with username (or email) and password.
  registry.registerComponent('securitySchemes', 'oauth2', {
    type: 'oauth2',
    description: 'Username (or email) and password, exchanged at POST /token',
    flows: { password: { tokenUrl: 'token', scopes: {} } },
  });
  for (const route of routes) register(registry, route);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'tubesum',
      version: '0.1.0',
      description:
        'Summaries of YouTube videos from their transcripts, for registered users. ' +
        'Register, then use Authorize (username or email and password) to try the protected routes. ' +
        'Every error is RFC 9457 problem+json with a request_id.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
  });
}
