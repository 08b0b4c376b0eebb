// The route table: the single source of truth for the API. The local host serves it, the
// OpenAPI document (and so /docs) is generated from it, and the CDK stack deploys it.

import { loginTokenRequired, tooManyApiKeys, unknownApiKey } from './api-keys/errors';
import {
  API_KEYS_PER_USER,
  apiKeyIdSchema,
  apiKeyListSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from './api-keys/schemas';
import { askBodySchema, askResponseSchema } from './ask/schemas';
import { newPasswordSchema } from './auth/password-policy';
import {
  BadRequestError,
  ConflictError,
  GatewayTimeoutError,
  type HttpError,
  NotAcceptableError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from './errors';
import { mcpMessageSchema, mcpResponseSchema } from './mcp/messages';
import * as z from './schema';
import {
  jobIdSchema,
  jobListQuerySchema,
  jobListSchema,
  jobSchema,
  summarizeBodySchema,
  summarizeResponseSchema,
} from './summaries/schemas';
import { emailSchema, usernameSchema } from './users/identity';
import { videoUnavailable } from './youtube/errors';

export { askBodySchema, askResponseSchema, citationSchema } from './ask/schemas';
export { problemSchema } from './http/problem-schema';
export {
  keyPointSchema,
  SUMMARY_LENGTH,
  summarizeBodySchema,
  summarizeResponseSchema,
  usedModelSchema,
} from './summaries/schemas';

/** The API's version, as the OpenAPI document and the MCP server tell it. */
export const API_VERSION = '0.1.0';

/** Names of the Lambda handlers: each is `functions/<name>.ts` exporting `handler`. */
export type HandlerName =
  | 'health'
  | 'register'
  | 'token'
  | 'summarize'
  | 'summaries'
  | 'api-keys'
  | 'ask'
  | 'mcp'
  | 'docs';

/**
 * Handlers that touch no storage: the local host serves them while its database is still
 * starting. The stack grants them no table access (test/infra/stack.test.ts checks both agree).
 */
export const STATELESS_HANDLERS: ReadonlySet<HandlerName> = new Set(['health', 'docs']);

export type ContentType = 'application/json' | 'application/x-www-form-urlencoded';

/** Response headers a route sets itself (the ones every response of a status carries, such as
 * X-Request-Id or a 429's Retry-After, are added by lib/openapi.ts). */
export type RouteHeader = 'Location' | 'Content-Location' | 'Retry-After' | 'Preference-Applied';

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
   * status (by default, lib/openapi.ts gives the status's usual one).
   */
  example?: HttpError;
}

/** A request header a route reads (documented; its handler parses it). */
export interface HeaderDef {
  description: string;
  examples: readonly string[];
}

export interface RouteDef<
  B extends z.ZodMiniType = z.ZodMiniType,
  Q extends z.ZodMiniType = z.ZodMiniType,
> {
  method: 'GET' | 'POST' | 'DELETE';
  /** API Gateway path syntax: `/docs/{file}`. */
  path: string;
  handler: HandlerName;
  /** Needs `Authorization: Bearer <token>`: an access token from POST /token or an API key. */
  auth: boolean;
  /**
   * Needs an access token: an API key is refused with 403 login-token-required (the routes that
   * manage API keys). Only on routes with `auth: true`.
   */
  loginOnly?: boolean;
  summary: string;
  description: string;
  tag: 'service' | 'accounts' | 'summaries' | 'questions' | 'agents' | 'docs' | 'page';
  body?: { schema: B; contentTypes: readonly ContentType[] };
  /** Schemas of path parameters (plain strings when absent). */
  params?: Record<string, z.ZodMiniType>;
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
}

/** A route, keeping its body and query schemas and whether it needs a token in its type. */
const route = <
  B extends z.ZodMiniType,
  const A extends boolean,
  Q extends z.ZodMiniType = z.ZodMiniType,
>(
  def: Omit<RouteDef<B, Q>, 'auth'> & { auth: A },
): RouteDef<B, Q> & { auth: A } => def;

// ---- schemas -------------------------------------------------------------------------------
// Request schemas validate the bodies and are documented in their input form; response schemas
// are documented in their output form (lib/openapi.ts).

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
    expires_in: z
      .int()
      .check(z.positive(), z.meta({ description: 'Seconds until the token expires' })),
  })
  .check(z.meta({ id: 'TokenResponse' }));

/** The files GET /docs/{file} serves (Swagger UI's, and the page's own script). */
export const docsFileSchema = z
  .enum(['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js'])
  .check(z.meta({ description: 'A file of the documentation page' }));

/** The files GET /app/{file} serves: the page's script and style. */
export const webFileSchema = z
  .enum(['app.js', 'app.css'])
  .check(z.meta({ description: 'A file of the page for people' }));

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

// ...and every route that needs a login token (key management).
const loginOnly = {
  403: {
    description: 'Authenticated with an API key: managing keys needs an access token',
    example: loginTokenRequired(),
  },
} satisfies Record<number, ResponseDef>;

// ...and every route that reads a video and calls a model (POST /summarize, POST /ask).
const quotaAndModel = {
  429: {
    description: 'Daily quota used up; see Retry-After',
    example: new TooManyRequestsError(
      36000,
      'You have used all 50 summaries and questions of today (UTC); cached ones stay available.',
      'quota-exceeded',
    ),
  },
  502: {
    description:
      'YouTube or the model answered with something unusable, or the model is not enabled',
  },
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
      409: {
        description: 'Username or email already registered',
        example: new ConflictError('That username is already taken.'),
      },
      422: {
        description: 'Invalid fields (see errors)',
        example: new ValidationError([
          {
            field: 'password',
            message: 'is one of the most commonly used passwords; choose another',
          },
        ]),
      },
      429: {
        description:
          'Too many accounts registered from this address this hour, or too many password hashes from this address; see Retry-After',
        example: new TooManyRequestsError(
          3600,
          'Too many accounts were registered from this address; try again later.',
          'too-many-registrations',
        ),
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
      401: {
        description: 'Wrong username, email or password (always the same answer)',
        example: new UnauthorizedError('invalid_credentials'),
      },
      422: {
        description: 'Invalid fields (see errors)',
        example: new ValidationError([{ field: 'password', message: 'is required' }]),
      },
      429: {
        description:
          'Too many failed logins for this account (from this address or from everywhere), or too many password checks from this address; see Retry-After',
        example: new TooManyRequestsError(
          900,
          'Too many failed logins for this account; try again later.',
          'too-many-login-attempts',
        ),
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
      "Fetches the video's captions and metadata, and summarises the transcript in about summary_length words with the chosen model. Answers 200 with the summary when it is ready within the wait (a cached summary, the extractive model, a short video); otherwise 202 with a job to poll at Location (GET /summaries/{id}). The wait follows RFC 7240: `Prefer: respond-async` answers 202 at once, `Prefer: wait=N` waits at most N seconds, otherwise the server's wait (SUMMARIZE_WAIT_MS, 20 s by default). Identical requests share one summary; a cached one does not count against the daily quota.",
    body: { schema: summarizeBodySchema, contentTypes: ['application/json'] },
    headers: {
      Prefer: {
        description:
          'RFC 7240: `respond-async` (answer 202 with the job at once unless the summary is ready), `wait=N` (wait at most N seconds for the summary). Preference-Applied says which were honoured.',
        examples: ['respond-async', 'wait=5', 'respond-async, wait=2'],
      },
    },
    responses: {
      200: {
        description:
          'The summary (ready within the wait); Content-Location names its job in GET /summaries',
        schema: summarizeResponseSchema,
        headers: { 'Content-Location': 'always', 'Preference-Applied': 'sometimes' },
      },
      202: {
        description:
          'Not ready within the wait: the job, to poll at Location (after Retry-After seconds) until it is done',
        schema: jobSchema,
        headers: { Location: 'always', 'Retry-After': 'always', 'Preference-Applied': 'sometimes' },
      },
      ...withBody,
      404: {
        description: 'Video unavailable or private',
        example: videoUnavailable('Video unavailable'),
      },
      422: {
        description:
          'Invalid fields, unknown model, a summary_length the model cannot make (summary-length-unsupported, with max_summary_length), or a video without usable captions',
        example: new ValidationError([
          {
            field: 'video_url',
            message: 'Only youtube.com, youtu.be and youtube-nocookie.com links are accepted.',
          },
        ]),
      },
      ...quotaAndModel,
      503: {
        description:
          'YouTube blocked us, the model is throttled, or the job could not be queued; see Retry-After',
      },
      504: { description: 'YouTube or the model did not answer in time' },
    },
  }),
  listSummaries: route({
    method: 'GET',
    path: '/summaries',
    handler: 'summaries',
    auth: true,
    tag: 'summaries',
    summary: "The caller's summary jobs, newest first (their history)",
    description:
      'Every summary the caller asked for with POST /summarize, finished or not, newest first, one page at a time (limit, then next_cursor). A job created a moment ago may take a moment to appear.',
    query: jobListQuerySchema,
    responses: {
      200: { description: 'A page of jobs', schema: jobListSchema },
      ...handled,
      422: {
        description: 'Invalid limit or cursor (see errors)',
        example: new ValidationError([
          { field: 'limit', message: 'Too big: expected number to be <=100' },
        ]),
      },
    },
  }),
  getSummary: route({
    method: 'GET',
    path: '/summaries/{id}',
    handler: 'summaries',
    auth: true,
    tag: 'summaries',
    summary: 'A summary job: where it stands, then its summary or its problem',
    description:
      "Poll until status is done (result is the summary, exactly as POST /summarize answers it), failed (error is the problem a direct call would have answered) or cancelled. Only the job's owner sees it.",
    params: { id: jobIdSchema },
    responses: {
      200: {
        description: 'The job; Retry-After says when to look again while it is unfinished',
        schema: jobSchema,
        headers: { 'Retry-After': 'sometimes' },
      },
      ...handled,
      404: {
        description: 'No such job of yours',
        example: new NotFoundError('No such summary job.'),
      },
    },
  }),
  cancelSummary: route({
    method: 'DELETE',
    path: '/summaries/{id}',
    handler: 'summaries',
    auth: true,
    tag: 'summaries',
    summary: 'Cancel an unfinished summary job, or remove a finished one from the history',
    description:
      'An unfinished job is cancelled (200, status cancelled): no model call starts for it after this; a summary other jobs still wait for goes on for them. A finished job is removed from GET /summaries (204). A cancelled job still counts against the daily quota.',
    params: { id: jobIdSchema },
    responses: {
      200: { description: 'Cancelled: the job as it now stands', schema: jobSchema },
      204: { description: 'Removed from the history' },
      ...handled,
      404: {
        description: 'No such job of yours',
        example: new NotFoundError('No such summary job.'),
      },
    },
  }),
  ask: route({
    method: 'POST',
    path: '/ask',
    handler: 'ask',
    auth: true,
    tag: 'questions',
    summary: 'Ask a question about a YouTube video, with citations of the moments that answer it',
    description:
      "Answers a question from the video's transcript, within the request (ASK_DEADLINE_MS, 25 s at most; a slower answer is a 504 and never a job). The extractive model answers with the passages that best match the question (BM25+), in the speaker's own words; a language model answers in its words, with [m:ss] marks that are checked against the transcript: each is moved to the caption near that time that says it, or dropped. Every citation's start_seconds is the start of a caption of this video and its url opens this video there. A question the video does not address gets an answer saying so and no citation. Answers are cached per video, caption language, model and question (compared without case, spacing or Unicode form); a cached answer does not count against the daily quota, any other takes a unit of it.",
    body: { schema: askBodySchema, contentTypes: ['application/json'] },
    responses: {
      200: { description: 'The answer and its citations', schema: askResponseSchema },
      ...withBody,
      404: {
        description: 'Video unavailable or private',
        example: videoUnavailable('Video unavailable'),
      },
      422: {
        description:
          'Invalid fields (a question empty or over 500 characters, an unknown model, a refused video_url), a video without usable captions, or a model whose context cannot hold a passage of the transcript (context-too-small)',
        example: new ValidationError([{ field: 'question', message: 'must not be empty' }]),
      },
      ...quotaAndModel,
      503: { description: 'YouTube blocked us, or the model is throttled; see Retry-After' },
      504: {
        description: 'YouTube or the model did not answer before the deadline',
        example: new GatewayTimeoutError(
          'model-timeout',
          'The model did not answer in time; try again later, or with a faster model.',
        ),
      },
    },
  }),
  createApiKey: route({
    method: 'POST',
    path: '/api-keys',
    handler: 'api-keys',
    auth: true,
    loginOnly: true,
    tag: 'accounts',
    summary: 'Create an API key (the key is shown this once)',
    description: `An API key works wherever an access token does, as \`Authorization: Bearer <key>\`, until it is deleted; it does not expire. Keep it secret: the service stores only its SHA-256 and cannot show it again. Keys cannot manage keys: these routes need an access token from POST /token. A user holds at most ${API_KEYS_PER_USER} keys.`,
    body: { schema: createApiKeyBodySchema, contentTypes: ['application/json'] },
    responses: {
      201: { description: 'The new key, with its secret', schema: createdApiKeySchema },
      ...withBody,
      ...loginOnly,
      409: {
        description: `The caller already holds ${API_KEYS_PER_USER} keys`,
        example: tooManyApiKeys(),
      },
      422: {
        description: 'Invalid name (see errors)',
        example: new ValidationError([{ field: 'name', message: 'must not be empty' }]),
      },
    },
  }),
  listApiKeys: route({
    method: 'GET',
    path: '/api-keys',
    handler: 'api-keys',
    auth: true,
    loginOnly: true,
    tag: 'accounts',
    summary: "The caller's API keys (never the keys themselves)",
    description:
      'Each key with its id, name, when it was made and when it was last used (to the minute). Needs an access token from POST /token.',
    responses: {
      200: { description: 'The keys, newest first', schema: apiKeyListSchema },
      ...handled,
      ...loginOnly,
    },
  }),
  deleteApiKey: route({
    method: 'DELETE',
    path: '/api-keys/{id}',
    handler: 'api-keys',
    auth: true,
    loginOnly: true,
    tag: 'accounts',
    summary: 'Delete an API key: it stops working at once',
    description:
      'A request with the key a moment later gets 401, on every instance of the service. Needs an access token from POST /token.',
    params: { id: apiKeyIdSchema },
    responses: {
      204: { description: 'Deleted' },
      ...handled,
      ...loginOnly,
      404: { description: 'No such key of yours', example: unknownApiKey() },
    },
  }),
  mcp: route({
    method: 'POST',
    path: '/mcp',
    handler: 'mcp',
    auth: true,
    tag: 'agents',
    summary: 'The Model Context Protocol endpoint: tubesum as tools for AI agents',
    description:
      "MCP's Streamable HTTP transport, stateless, answering JSON (send `Accept: application/json, text/event-stream`, as MCP clients do). Connect an MCP client (Claude Code, Claude Desktop, Cursor, VS Code) to this URL with an API key as `Authorization: Bearer tsk_...`. Tools: summarize_video takes the body of POST /summarize and answers its 200 body, or the job (the body of GET /summaries/{id}) when the summary takes longer than the wait; get_summary {id} answers the body of GET /summaries/{id}; get_transcript {video_url, language, start_seconds, end_seconds} answers the captions with their times, a page at a time; ask_video takes the body of POST /ask and answers its 200 body. A tool's failure (a bad argument, an unknown video, the quota) is a result with isError and the problem the REST route would answer, not an HTTP error. GET and DELETE answer 405: there are no sessions and no event streams.",
    body: { schema: mcpMessageSchema, contentTypes: ['application/json'] },
    headers: {
      'MCP-Protocol-Version': {
        description:
          'The protocol version agreed at initialize (MCP clients send it on every later request)',
        examples: ['2025-11-25', '2025-06-18'],
      },
    },
    responses: {
      200: {
        description:
          "The JSON-RPC response: initialize's, the tool list, or a tool's result (content, structuredContent, isError)",
        schema: mcpResponseSchema,
      },
      202: { description: 'A notification accepted (no body)' },
      ...handled,
      400: {
        description:
          'Malformed body (not JSON, not an object), or not a JSON-RPC message of MCP: the detail is the MCP SDK’s reason',
        example: new BadRequestError('Parse error: Invalid JSON-RPC message'),
      },
      406: {
        description: 'Accept does not list both application/json and text/event-stream',
        example: new NotAcceptableError(
          'Not Acceptable: Client must accept both application/json and text/event-stream',
        ),
      },
      415: { description: 'Unsupported Content-Type' },
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
  page: route({
    method: 'GET',
    path: '/',
    handler: 'docs',
    auth: false,
    tag: 'page',
    summary: 'The page for people: sign up, summarise a video, read its key points, find it again',
    description:
      'A small web app over this API, served by the service itself: no CDN and no request to any other origin.',
    responses: {
      200: { description: 'An HTML page', contentTypes: ['text/html'] },
      ...handled,
    },
  }),
  pageFile: route({
    method: 'GET',
    path: '/app/{file}',
    handler: 'docs',
    auth: false,
    tag: 'page',
    summary: "The page's script and style",
    description: 'The files the page loads.',
    params: { file: webFileSchema },
    responses: {
      200: { description: 'A static file', contentTypes: ['text/javascript', 'text/css'] },
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
