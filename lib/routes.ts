// The route table: the single source of truth for the API. The local host serves it, the
// OpenAPI document (and so /docs) is generated from it, and the CDK stack deploys it.
import * as z from 'zod';
import { emailSchema, usernameSchema } from './users/identity';
import { transcriptLanguageSchema, videoMetadataSchema } from './youtube/schema';

/** Names of the Lambda handlers: each is `functions/<name>.ts` exporting `handler`. */
export type HandlerName = 'health' | 'register' | 'token' | 'summarize' | 'docs';

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

export const SUMMARY_LENGTH = { min: 25, max: 2_000, default: 200 } as const;

export const summarizeBodySchema = z
  .object({
    video_url: z.string().trim().min(1).max(4_096).meta({
      description:
        'A YouTube link (watch, youtu.be, shorts, embed, live...) or an 11-character video ID',
      example: 'https://www.youtube.com/watch?v=GJLlxj_dtq8',
    }),
    summary_length: z
      .number()
      .int()
      .min(SUMMARY_LENGTH.min)
      .max(SUMMARY_LENGTH.max)
      .default(SUMMARY_LENGTH.default)
      .meta({ description: 'Target length of the summary, in words', example: 200 }),
    used_model: z.string().trim().min(1).max(64).optional().meta({
      description:
        'Model name: extractive (offline, default locally), nova-micro, nova-lite, nova-pro, claude-haiku, claude-sonnet, or as the operator configured. An unknown name gets a 422 listing the allowed ones.',
      example: 'extractive',
    }),
    language: transcriptLanguageSchema.optional(),
  })
  .meta({ id: 'SummarizeRequest' });

const tokenCount = z.number().int().nonnegative().nullable();

export const summarizeResponseSchema = z
  .object({
    summary: z.string(),
    word_count: z.number().int().meta({ description: 'Words in the summary' }),
    metadata: videoMetadataSchema
      .extend({
        transcript_language: z.string().meta({ description: 'Language of the caption track used' }),
        transcript_auto_generated: z
          .boolean()
          .meta({ description: "YouTube's speech recognition track" }),
        transcript_word_count: z.number().int(),
        model: z.string().meta({ description: 'The model name asked for (or the default)' }),
        model_id: z
          .string()
          .meta({ description: 'Bedrock model or inference profile id; "extractive" offline' }),
        summary_length_requested: z.number().int(),
        cached: z
          .boolean()
          .meta({ description: 'Answered from the cache (no YouTube or model call)' }),
        chunks: z.number().int().meta({ description: 'Parts the transcript was summarised in' }),
        input_tokens: tokenCount,
        output_tokens: tokenCount,
        estimated_cost_usd: z
          .number()
          .meta({ description: 'From the catalog prices and reported tokens' }),
        elapsed_ms: z.number().int(),
        generated_at: z.string().meta({ description: 'When the summary was made (ISO 8601)' }),
      })
      .meta({ id: 'SummaryMetadata' }),
  })
  .meta({ id: 'SummarizeResponse' });

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
  summarize: route({
    method: 'POST',
    path: '/summarize',
    handler: 'summarize',
    auth: true,
    tag: 'summaries',
    summary: 'Summarise the transcript of a YouTube video',
    description:
      "Fetches the video's captions and metadata, and summarises the transcript in about summary_length words with the chosen model. Identical requests are answered from a cache and do not count against the daily quota.",
    body: { schema: summarizeBodySchema, contentTypes: ['application/json'] },
    responses: {
      200: { description: 'The summary', schema: summarizeResponseSchema },
      ...problems,
      404: { description: 'Video unavailable or private' },
      422: { description: 'Invalid fields, unknown model, or a video without usable captions' },
      429: { description: 'Daily quota used up; see Retry-After' },
      502: {
        description:
          'YouTube or the model answered with something unusable, or the model is not enabled',
      },
      503: { description: 'YouTube blocked us, or the model is throttled; see Retry-After' },
      504: { description: 'YouTube or the model did not answer within the deadline' },
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

/**
 * The handler of API Gateway's `$default` route (requests no route takes): it answers the same
 * 404/405 problem as the local host, instead of API Gateway's bare `{"message":"Not Found"}`.
 */
export const UNROUTED_HANDLER: HandlerName = 'docs';
export const routeList: readonly RouteDef[] = Object.values(routes);
