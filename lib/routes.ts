// The route table: the single source of truth for the API. The local host serves it, the
// OpenAPI document (and so /docs) is generated from it, and the CDK stack deploys it.
import { z } from 'zod';
import { emailSchema, usernameSchema } from './users/identity';

/** Names of the Lambda handlers: each is `functions/<name>.ts` exporting `handler`. */
export type HandlerName = 'health' | 'register' | 'token' | 'docs';

export type ContentType = 'application/json' | 'application/x-www-form-urlencoded';

export interface ResponseDef {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json (problem+json for 4xx/5xx). */
  contentType?: string;
}

export interface RouteDef<B extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  /** API Gateway path syntax: `/docs/{file}`. */
  path: string;
  handler: HandlerName;
  /** Needs `Authorization: Bearer <token>`. */
  auth: boolean;
  summary: string;
  description?: string;
  tag: 'service' | 'accounts' | 'summaries' | 'docs';
  body?: { schema: B; contentTypes: readonly ContentType[] };
  responses: Record<number, ResponseDef>;
}

const route = <B extends z.ZodType>(def: RouteDef<B>): RouteDef<B> => def;

// ---- schemas -------------------------------------------------------------------------------

export const problemSchema = z
  .object({
    type: z.string().meta({ example: 'urn:tubesum:problem:validation-error' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    request_id: z.string(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Field-level problems (422 only)' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details' });

export const healthResponseSchema = z
  .object({ status: z.literal('healthy') })
  .meta({ id: 'Health' });

const passwordSchema = z
  .string()
  .min(1)
  .max(1_024)
  .meta({ description: '8+ characters, at most 72 bytes in UTF-8, not a common password' });

export const registerBodySchema = z
  .object({ username: usernameSchema, email: emailSchema, password: passwordSchema })
  .meta({ id: 'RegisterRequest' });

export const registerResponseSchema = z
  .object({
    message: z.string().meta({ example: 'User alice registered successfully.' }),
    username: z.string(),
  })
  .meta({ id: 'RegisterResponse' });

// Field names follow the OAuth2 password grant (RFC 6749 4.3), which Swagger UI's Authorize
// button sends as a form; `username` may hold the username or the email.
export const tokenBodySchema = z
  .object({
    username: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: 'Username or email' }),
    email: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: 'Alternative to username' }),
    password: z.string().min(1).max(1_024),
    grant_type: z.literal('password').optional(),
  })
  .refine((body) => body.username !== undefined || body.email !== undefined, {
    message: 'username (or email) is required',
    path: ['username'],
  })
  .meta({ id: 'TokenRequest' });

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int().meta({ description: 'Seconds until the token expires' }),
  })
  .meta({ id: 'TokenResponse' });

// ---- routes --------------------------------------------------------------------------------

const problems = {
  400: { description: 'Malformed body (not JSON, not an object)' },
  413: { description: 'Body larger than the limit' },
  415: { description: 'Unsupported Content-Type' },
  422: { description: 'Invalid fields' },
  500: { description: 'Unexpected error' },
  503: { description: 'A dependency is unavailable; see Retry-After' },
} satisfies Record<number, ResponseDef>;

export const routes = {
  health: route({
    method: 'GET',
    path: '/health',
    handler: 'health',
    auth: false,
    tag: 'service',
    summary: 'Liveness check',
    description: 'Touches no dependency: healthy whenever the function runs.',
    responses: { 200: { description: 'The service runs', schema: healthResponseSchema } },
  }),
  register: route({
    method: 'POST',
    path: '/register',
    handler: 'register',
    auth: false,
    tag: 'accounts',
    summary: 'Create an account',
    body: { schema: registerBodySchema, contentTypes: ['application/json'] },
    responses: {
      201: { description: 'Registered', schema: registerResponseSchema },
      ...problems,
      409: { description: 'Username or email already registered' },
    },
  }),
  token: route({
    method: 'POST',
    path: '/token',
    handler: 'token',
    auth: false,
    tag: 'accounts',
    summary: 'Log in: exchange username (or email) and password for an access token',
    body: {
      schema: tokenBodySchema,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    },
    responses: {
      200: { description: 'A bearer token', schema: tokenResponseSchema },
      ...problems,
      401: { description: 'Wrong username, email or password (always the same answer)' },
      429: { description: 'Too many failed logins for this account; see Retry-After' },
    },
  }),
  openapi: route({
    method: 'GET',
    path: '/openapi.json',
    handler: 'docs',
    auth: false,
    tag: 'docs',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
  }),
  docs: route({
    method: 'GET',
    path: '/docs',
    handler: 'docs',
    auth: false,
    tag: 'docs',
    summary: 'Interactive documentation (Swagger UI)',
    responses: { 200: { description: 'An HTML page', contentType: 'text/html' } },
  }),
  docsAsset: route({
    method: 'GET',
    path: '/docs/{file}',
    handler: 'docs',
    auth: false,
    tag: 'docs',
    summary: 'Swagger UI files (scripts and styles), served locally, no CDN',
    responses: {
      200: { description: 'A static file', contentType: 'application/javascript' },
      404: { description: 'No such file' },
    },
  }),
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;
export const routeList: readonly RouteDef[] = Object.values(routes);
