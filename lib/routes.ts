// The route table: the single source of truth for the API. The local host serves it, the
// OpenAPI document (and so /docs) is generated from it, and the CDK stack deploys it.

import { newPasswordSchema } from './auth/password-policy';
import { OAUTH2_ERRORS } from './http/problem';
import * as z from './schema';
import { emailSchema, usernameSchema } from './users/identity';
import { BLOCK_REASONS } from './youtube/errors';
import {
  LANGUAGE_TAG_PATTERN,
  transcriptLanguageSchema,
  videoMetadataSchema,
} from './youtube/schema';
import { MAX_VIDEO_URL_LENGTH, VIDEO_URL_PATTERN } from './youtube/url';

/** Names of the Lambda handlers: each is `functions/<name>.ts` exporting `handler`. */
export type HandlerName = 'health' | 'register' | 'token' | 'summarize' | 'docs';

/**
 * Handlers that touch no storage: the local host serves them while its database is still
 * starting. The stack grants them no table access (test/infra/stack.test.ts checks both agree).
 */
export const STATELESS_HANDLERS: ReadonlySet<HandlerName> = new Set(['health', 'docs']);

export type ContentType = 'application/json' | 'application/x-www-form-urlencoded';

export interface ResponseDef {
  description: string;
  /** The JSON body; problems (4xx/5xx) always have the Problem schema. */
  schema?: z.ZodMiniType;
  /** Media types of a body that is not JSON (HTML, scripts, styles), documented as text. */
  contentTypes?: readonly string[];
}

export interface RouteDef<B extends z.ZodMiniType = z.ZodMiniType> {
  method: 'GET' | 'POST';
  /** API Gateway path syntax: `/docs/{file}`. */
  path: string;
  handler: HandlerName;
  /** Needs `Authorization: Bearer <token>`. */
  auth: boolean;
  summary: string;
  description: string;
  tag: 'service' | 'accounts' | 'summaries' | 'docs';
  body?: { schema: B; contentTypes: readonly ContentType[] };
  /** Schemas of path parameters (plain strings when absent). */
  params?: Record<string, z.ZodMiniType>;
  responses: Record<number, ResponseDef>;
  /**
   * Problems also carry RFC 6749's `error` and `error_description` (an OAuth2 token endpoint's
   * error shape), which Swagger UI's Authorize dialog shows.
   */
  oauth2Errors?: boolean;
}

/** A route, keeping its body schema and whether it needs a token in its type. */
const route = <B extends z.ZodMiniType, const A extends boolean>(
  def: Omit<RouteDef<B>, 'auth'> & { auth: A },
): RouteDef<B> & { auth: A } => def;

// ---- schemas -------------------------------------------------------------------------------
// Request schemas validate the bodies and are documented in their input form; response schemas
// are documented in their output form (lib/openapi.ts).

export const problemSchema = z
  .object({
    type: z.string().check(z.meta({ examples: ['urn:tubesum:problem:validation-error'] })),
    title: z.string(),
    status: z.int().check(z.minimum(400), z.maximum(599)),
    detail: z.string(),
    request_id: z
      .string()
      .check(z.meta({ description: 'Also in the X-Request-Id header and the logs' })),
    errors: z
      .optional(z.array(z.object({ field: z.string(), message: z.string() })))
      .check(z.meta({ description: 'Field-level problems (422 validation-error)' })),
    allowed_models: z.optional(z.array(z.string())).check(
      z.meta({
        description: 'The models this deployment offers (422 for an unknown used_model)',
      }),
    ),
    available_languages: z.optional(z.array(z.string())).check(
      z.meta({
        description: 'Caption languages the video has (422 transcript-language-unavailable)',
      }),
    ),
    youtube_reason: z.optional(z.string()).check(
      z.meta({
        description:
          "YouTube's own words (404 video-unavailable, 422 age-restricted or video-unplayable)",
      }),
    ),
    block_reason: z
      .optional(z.enum(BLOCK_REASONS))
      .check(z.meta({ description: 'Why YouTube refused this server (503 youtube-blocked)' })),
    error: z
      .optional(z.enum(OAUTH2_ERRORS))
      .check(z.meta({ description: 'OAuth2 error code (POST /token only, RFC 6749 5.2)' })),
    error_description: z
      .optional(z.string())
      .check(z.meta({ description: 'The detail again, for OAuth2 clients (POST /token only)' })),
  })
  .check(z.meta({ id: 'Problem', description: 'RFC 9457 problem details' }));

export const healthResponseSchema = z
  .object({ status: z.literal('healthy') })
  .check(z.meta({ id: 'Health' }));

export const registerBodySchema = z
  .object({ username: usernameSchema, email: emailSchema, password: newPasswordSchema })
  .check(z.meta({ id: 'RegisterRequest' }));

export const registerResponseSchema = z
  .object({
    message: z.string().check(z.meta({ examples: ['User alice registered successfully.'] })),
    username: z.string(),
  })
  .check(z.meta({ id: 'RegisterResponse' }));

// Field names follow the OAuth2 password grant (RFC 6749 4.3), which Swagger UI's Authorize
// button sends as a form; `username` may hold the username or the email.
const identifierSchema = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(256));

export const tokenBodySchema = z
  .object({
    username: z.optional(identifierSchema()).check(z.meta({ description: 'Username or email' })),
    email: z.optional(identifierSchema()).check(z.meta({ description: 'Alternative to username' })),
    password: z.string().check(z.minLength(1), z.maxLength(1_024)),
    grant_type: z.optional(z.literal('password')),
  })
  .check(
    z.refine((body) => body.username !== undefined || body.email !== undefined, {
      message: 'username (or email) is required',
      path: ['username'],
    }),
    // The refinement above in JSON Schema's words (zod cannot derive it from a function).
    z.meta({ id: 'TokenRequest', anyOf: [{ required: ['username'] }, { required: ['email'] }] }),
  );

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.int().check(z.meta({ description: 'Seconds until the token expires' })),
  })
  .check(z.meta({ id: 'TokenResponse' }));

export const SUMMARY_LENGTH = { min: 25, max: 2_000, default: 200 } as const;

/** `used_model`; lib/openapi.ts documents it as an enum of the models the deployment offers. */
export const usedModelSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));

/** The optional `summary_language` field of a summarize request: the summary's language. */
export const summaryLanguageSchema = z.string().check(
  z.maxLength(35),
  z.regex(LANGUAGE_TAG_PATTERN, 'Must be a language code such as "de" or "pt-BR".'),
  z.meta({
    description:
      'Language to write the summary in (BCP 47, e.g. "de", "pt-BR"); by default the transcript’s. Language models translate; the extractive model cannot and answers 422 summary-language-unsupported when it differs from the transcript’s.',
    examples: ['de'],
  }),
);

export const summarizeBodySchema = z
  .object({
    // lib/youtube/url.ts parses it (and says why when it refuses); the pattern documents the
    // forms it accepts.
    video_url: z.string().check(
      z.maxLength(MAX_VIDEO_URL_LENGTH),
      z.meta({
        description:
          'A YouTube link (watch, youtu.be, shorts, embed, live...) or an 11-character video ID',
        examples: ['https://www.youtube.com/watch?v=GJLlxj_dtq8'],
        pattern: VIDEO_URL_PATTERN,
      }),
    ),
    summary_length: z
      ._default(
        z.int().check(z.minimum(SUMMARY_LENGTH.min), z.maximum(SUMMARY_LENGTH.max)),
        SUMMARY_LENGTH.default,
      )
      .check(z.meta({ description: 'Target length of the summary, in words', examples: [200] })),
    used_model: z.optional(usedModelSchema).check(
      z.meta({
        description:
          'The model to summarise with (case-insensitive); the server default when absent. An unknown name gets a 422 listing the allowed ones in allowed_models.',
        examples: ['extractive'],
      }),
    ),
    language: z.optional(transcriptLanguageSchema),
    summary_language: z.optional(summaryLanguageSchema),
    include_key_points: z._default(z.boolean(), true).check(
      z.meta({
        description:
          'Whether the answer carries key_points (they are made and cached either way, so this only shapes the answer)',
      }),
    ),
  })
  .check(z.meta({ id: 'SummarizeRequest' }));

export const keyPointSchema = z
  .object({
    text: z.string().check(z.meta({ description: 'The point, in one sentence' })),
    start_seconds: z.number().check(
      z.nonnegative(),
      z.meta({
        description:
          'Where the caption that says it starts, in seconds from the start of the video (milliseconds as decimals)',
        examples: [81.2],
      }),
    ),
    url: z.string().check(
      z.meta({
        description: 'The video at that moment (t= in whole seconds)',
        examples: ['https://www.youtube.com/watch?v=py5byOOHZM8&t=81s'],
      }),
    ),
  })
  .check(z.meta({ id: 'KeyPoint' }));

const tokenCount = () => z.nullable(z.int().check(z.nonnegative()));

export const summarizeResponseSchema = z
  .object({
    summary: z.string(),
    word_count: z.int().check(z.meta({ description: 'Words in the summary' })),
    key_points: z.optional(z.array(keyPointSchema)).check(
      z.meta({
        description:
          'The main points with the moment each is said, in video order; every start_seconds is the start of a caption of the transcript. Absent when the request set include_key_points to false; may be empty when the model gave none the transcript bears out.',
      }),
    ),
    metadata: z
      .extend(videoMetadataSchema, {
        transcript_language: z
          .string()
          .check(z.meta({ description: 'Language of the caption track used' })),
        transcript_auto_generated: z
          .boolean()
          .check(z.meta({ description: "YouTube's speech recognition track" })),
        transcript_word_count: z.int(),
        summary_language: z.string().check(
          z.meta({
            description:
              'Language the summary is written in: summary_language, or the transcript’s',
            examples: ['en'],
          }),
        ),
        transcript_client: z.string().check(
          z.meta({
            description:
              'The InnerTube client whose caption list gave the transcript (see YOUTUBE_CLIENTS)',
            examples: ['ANDROID'],
          }),
        ),
        model: z
          .string()
          .check(z.meta({ description: 'The model name asked for (or the default)' })),
        model_id: z
          .string()
          .check(
            z.meta({ description: 'Bedrock model or inference profile id; "extractive" offline' }),
          ),
        summary_length_requested: z.int(),
        cached: z
          .boolean()
          .check(z.meta({ description: 'Answered from the cache (no YouTube or model call)' })),
        chunks: z.int().check(z.meta({ description: 'Parts the transcript was summarised in' })),
        input_tokens: tokenCount(),
        output_tokens: tokenCount(),
        estimated_cost_usd: z
          .number()
          .check(z.meta({ description: 'From the catalog prices and reported tokens' })),
        elapsed_ms: z.int(),
        generated_at: z
          .string()
          .check(z.meta({ description: 'When the summary was made (ISO 8601)' })),
      })
      .check(
        z.meta({
          id: 'SummaryMetadata',
          description: 'About the video, its transcript and how the summary was made.',
        }),
      ),
  })
  .check(z.meta({ id: 'SummarizeResponse' }));

/** The files GET /docs/{file} serves (Swagger UI's, and the page's own script). */
export const docsFileSchema = z
  .enum(['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js'])
  .check(z.meta({ description: 'A file of the documentation page' }));

/** What GET /openapi.json returns (described loosely: it is this very document). */
export const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .check(z.meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' }));

// ---- routes --------------------------------------------------------------------------------

// Problems every route can answer, whatever its handler: a wrong method on its path (with
// Allow), and a body over the limit (413 is checked before anything else, even on GETs).
const anyRoute = {
  405: { description: 'The path does not take this method; Allow lists the ones it does' },
  413: { description: 'Body larger than the limit' },
} satisfies Record<number, ResponseDef>;

// ...and every route served through the shared HTTP layer (lib/http/handler.ts).
const handled = {
  ...anyRoute,
  500: { description: 'Unexpected error (the log has it under request_id)' },
  503: {
    description: 'A dependency is unavailable or the server is misconfigured; see Retry-After',
  },
} satisfies Record<number, ResponseDef>;

// ...and every route with a body.
const withBody = {
  ...handled,
  400: { description: 'Malformed body (not JSON or a form, not an object, empty)' },
  415: { description: 'Unsupported Content-Type' },
  422: { description: 'Invalid fields (see errors)' },
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
    responses: {
      200: { description: 'The service runs', schema: healthResponseSchema },
      ...anyRoute,
    },
  }),
  register: route({
    method: 'POST',
    path: '/register',
    handler: 'register',
    auth: false,
    tag: 'accounts',
    summary: 'Create an account',
    description:
      'The password is stored only as a bcrypt hash. Usernames and emails are unique, compared case-insensitively.',
    body: { schema: registerBodySchema, contentTypes: ['application/json'] },
    responses: {
      201: { description: 'Registered', schema: registerResponseSchema },
      ...withBody,
      409: { description: 'Username or email already registered' },
      429: {
        description: 'Too many accounts registered from this address this hour; see Retry-After',
      },
    },
  }),
  token: route({
    method: 'POST',
    path: '/token',
    handler: 'token',
    auth: false,
    tag: 'accounts',
    summary: 'Log in: exchange username (or email) and password for an access token',
    description:
      "Takes JSON or an OAuth2 password-grant form (what Swagger UI's Authorize button sends). Every failed login gets the same 401; after repeated failures for one account, logins are refused for a while (429).",
    body: {
      schema: tokenBodySchema,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    },
    oauth2Errors: true,
    responses: {
      200: { description: 'A bearer token', schema: tokenResponseSchema },
      ...withBody,
      401: { description: 'Wrong username, email or password (always the same answer)' },
      429: {
        description:
          'Too many failed logins for this account, from this address or from everywhere; see Retry-After',
      },
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
      ...withBody,
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
    description:
      'Generated from the route table; used_model lists the models this deployment offers.',
    responses: {
      200: { description: 'The OpenAPI document', schema: openApiDocumentSchema },
      ...handled,
    },
  }),
  docs: route({
    method: 'GET',
    path: '/docs',
    handler: 'docs',
    auth: false,
    tag: 'docs',
    summary: 'Interactive documentation (Swagger UI)',
    description: 'Swagger UI over this document, served by the service itself (no CDN).',
    responses: {
      200: { description: 'An HTML page', contentTypes: ['text/html'] },
      ...handled,
    },
  }),
  docsAsset: route({
    method: 'GET',
    path: '/docs/{file}',
    handler: 'docs',
    auth: false,
    tag: 'docs',
    summary: 'Swagger UI files (scripts and styles), served locally, no CDN',
    description: 'The files the documentation page loads.',
    params: { file: docsFileSchema },
    responses: {
      200: {
        description: 'A static file',
        contentTypes: ['application/javascript', 'text/css'],
      },
      ...handled,
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
