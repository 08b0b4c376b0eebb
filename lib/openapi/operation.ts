// One route as an operation of the document: its responses (with problem examples and
// headers), its path, query and header parameters, its security and request body.
import type {
  OperationObject,
  ParameterObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { oauthErrorSchema } from '../oauth/schemas';
import { problemSchema } from '../problems/schema';
import type { RouteDef } from '../routes/route';
import type * as z from '../schema';
import { type HeaderName, responseHeaders } from './headers';
import { problemExample, usualProblem } from './problem-catalog';
import type { SchemaCollector } from './schemas';
import { TAGS } from './tags';

/** Path parameters of an API Gateway style path, e.g. `{file}` in `/docs/{file}`. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

export function operation(
  operationId: string,
  route: RouteDef,
  schemas: SchemaCollector,
  usedHeaders: Set<HeaderName>,
  allowed: readonly string[],
): OperationObject {
  const responses = responsesOf(route, schemas, usedHeaders, allowed);
  const parameters = parametersOf(route, schemas);
  return {
    operationId,
    summary: route.summary,
    description: route.description,
    tags: [TAGS[route.tag].name],
    security: securityOf(route),
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

/** Any of these: a log-in, a pasted access token, or (except where keys are managed) a key; at
 * /mcp, an OAuth access token for it or a key. */
function securityOf(route: RouteDef): OperationObject['security'] {
  if (!route.auth) return [];
  if (route.mcpTokens) return [{ mcpOAuth: [] }, { apiKeyAuth: [] }];
  return [{ oauth2: [] }, { bearerAuth: [] }, ...(route.loginOnly ? [] : [{ apiKeyAuth: [] }])];
}

/** The route's responses by status, a 401 added where it authenticates. */
function responsesOf(
  route: RouteDef,
  schemas: SchemaCollector,
  usedHeaders: Set<HeaderName>,
  allowed: readonly string[],
): Record<string, ResponseObject> {
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
      content = successContent(response, schemas);
    }
    responses[code] = {
      description: response.description,
      headers: responseHeaders(status, response.headers ?? {}, usedHeaders),
      // A response without a body (204) has no content at all.
      ...(content ? { content } : {}),
    };
  }
  return responses;
}

/** A success's body: its JSON schema and its text types; none for a response without one. */
function successContent(
  response: RouteDef['responses'][number],
  schemas: SchemaCollector,
): ResponseObject['content'] {
  const typed: NonNullable<ResponseObject['content']> = response.schema
    ? { 'application/json': { schema: schemas.schema(response.schema, 'output') } }
    : {};
  const texts = Object.fromEntries(
    (response.contentTypes ?? []).map((type) => [type, { schema: { type: 'string' as const } }]),
  );
  return response.schema || response.contentTypes ? { ...typed, ...texts } : undefined;
}

/** The route's path, query and header parameters, in that order. */
function parametersOf(route: RouteDef, schemas: SchemaCollector): ParameterObject[] {
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
  return parameters;
}
