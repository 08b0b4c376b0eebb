// Errors that carry their HTTP status. One codec turns them, and anything else
// thrown, into RFC 9457 problem documents; anything it does not know becomes an opaque 500.

/** A field-level validation failure, as listed in a 422 problem's `errors`. */
export interface FieldError {
  field: string;
  message: string;
}

export interface HttpErrorOptions {
  /** Human-readable explanation sent to the client. Hidden for 5xx unless `expose` is set. */
  detail?: string;
  /** Extra response headers (Retry-After, WWW-Authenticate, Allow...). */
  headers?: Record<string, string>;
  /** Extra members of the problem document (e.g. `errors`, `allowed_models`). */
  extensions?: Record<string, unknown>;
  /** The underlying error, for logs only. */
  cause?: unknown;
  /** Send `detail` to the client even for a 5xx (only for messages written for clients). */
  expose?: boolean;
}

/**
 * Base class of every error a handler may throw on purpose.
 * `type` is a stable slug; clients see it as `urn:tubesum:problem:<type>`.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;
  /**
   * Whether the client may read `detail`: below 500 always, a 5xx only when its message was
   * written for clients (middy's rule, `expose = status < 500`, applied by lib/problems/codec.ts).
   * Status and headers are the client's to see either way (a 503 stays a 503).
   */
  readonly expose: boolean;

  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    options: HttpErrorOptions = {},
  ) {
    super(options.detail ?? title, { cause: options.cause });
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
    this.expose = options.expose ?? status < 500;
  }
}

export class BadRequestError extends HttpError {
  override name = 'BadRequestError';
  constructor(detail: string, options: HttpErrorOptions = {}) {
    super(400, 'malformed-request', 'Malformed request', { ...options, detail });
  }
}

/**
 * Every authentication failure looks the same on purpose (no oracle for attackers): one body
 * for all token failures, one for all login failures. Only the challenge header differs
 * between "no credentials" and "bad credentials", as RFC 6750 asks.
 */
export class UnauthorizedError extends HttpError {
  override name = 'UnauthorizedError';
  constructor(
    kind: 'missing_token' | 'invalid_token' | 'invalid_credentials',
    /**
     * resourceMetadata: an OAuth protected resource's metadata URL, and scope: the scopes a token
     * for it should have (MCP's authorization specification), named by the challenge.
     */
    options: HttpErrorOptions & {
      resourceMetadata?: string | undefined;
      scope?: string | undefined;
    } = {},
  ) {
    const login = kind === 'invalid_credentials';
    const metadata =
      (options.resourceMetadata ? `, resource_metadata="${options.resourceMetadata}"` : '') +
      (options.scope ? `, scope="${options.scope}"` : '');
    super(401, login ? 'invalid-credentials' : 'invalid-token', 'Unauthorized', {
      ...options,
      detail: login
        ? 'Incorrect username, email or password.'
        : 'A valid bearer token is required in the Authorization header.',
      headers: {
        'WWW-Authenticate':
          kind === 'invalid_token'
            ? `Bearer realm="tubesum", error="invalid_token"${metadata}`
            : `Bearer realm="tubesum"${metadata}`,
        ...options.headers,
      },
    });
  }
}

export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
  constructor(detail = 'No such resource.', type = 'not-found', options: HttpErrorOptions = {}) {
    super(404, type, 'Not found', { ...options, detail });
  }
}

export class MethodNotAllowedError extends HttpError {
  override name = 'MethodNotAllowedError';
  constructor(allowed: string[]) {
    super(405, 'method-not-allowed', 'Method not allowed', {
      detail: `This path accepts ${allowed.join(', ')}.`,
      headers: { Allow: allowed.join(', ') },
    });
  }
}

/** 406: the client does not accept what the route answers with (MCP: JSON and event streams). */
export class NotAcceptableError extends HttpError {
  override name = 'NotAcceptableError';
  constructor(detail: string) {
    super(406, 'not-acceptable', 'Not acceptable', { detail });
  }
}

/**
 * 403: the credentials are good, but they may not do this (an API key managing API keys).
 * Unlike a 401, the client knows who it is: the detail says what would be allowed.
 */
export class ForbiddenError extends HttpError {
  override name = 'ForbiddenError';
  constructor(type: string, detail: string, options: HttpErrorOptions = {}) {
    super(403, type, 'Forbidden', { ...options, detail });
  }
}

/**
 * 403 for a bearer token without a scope the request needs (RFC 6750 3.1): its challenge names
 * the scopes to ask for and, as the 401's does, the resource metadata (MCP's step-up
 * authorization: the client asks the person again for `scope`).
 */
export class InsufficientScopeError extends HttpError {
  override name = 'InsufficientScopeError';
  constructor(
    detail: string,
    challenge: { scope: string; resourceMetadata: string },
    options: HttpErrorOptions = {},
  ) {
    super(403, 'insufficient-scope', 'Insufficient scope', {
      ...options,
      detail,
      headers: {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${challenge.scope}", resource_metadata="${challenge.resourceMetadata}"`,
        ...options.headers,
      },
    });
  }
}

export class ConflictError extends HttpError {
  override name = 'ConflictError';
  constructor(detail: string, type = 'conflict', options: HttpErrorOptions = {}) {
    super(409, type, 'Conflict', { ...options, detail });
  }
}

export class PayloadTooLargeError extends HttpError {
  override name = 'PayloadTooLargeError';
  constructor(limit: number) {
    super(413, 'payload-too-large', 'Payload too large', {
      detail: `The request body must not exceed ${limit} bytes.`,
    });
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  override name = 'UnsupportedMediaTypeError';
  constructor(accepted: string[]) {
    super(415, 'unsupported-media-type', 'Unsupported media type', {
      detail: `Send the body as ${accepted.join(' or ')}.`,
    });
  }
}

export class ValidationError extends HttpError {
  override name = 'ValidationError';
  constructor(errors: FieldError[], detail = 'The request has invalid fields.') {
    super(422, 'validation-error', 'Validation failed', { detail, extensions: { errors } });
  }
}

/** 422 for a request that is well-formed but cannot be served (e.g. captions disabled). */
export class UnprocessableError extends HttpError {
  override name = 'UnprocessableError';
  constructor(type: string, title: string, detail: string, options: HttpErrorOptions = {}) {
    super(422, type, title, { ...options, detail });
  }
}

export class TooManyRequestsError extends HttpError {
  override name = 'TooManyRequestsError';
  constructor(retryAfterSeconds: number, detail: string, type = 'too-many-requests') {
    super(429, type, 'Too many requests', {
      detail,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

/** 502: an upstream (YouTube, Bedrock) answered with something we cannot use. */
export class BadGatewayError extends HttpError {
  override name = 'BadGatewayError';
  constructor(type: string, detail: string, options: HttpErrorOptions = {}) {
    super(502, type, 'Bad gateway', { expose: true, ...options, detail });
  }
}

/** 503: a dependency is throttled, blocked or down; the client may retry later. */
export class ServiceUnavailableError extends HttpError {
  override name = 'ServiceUnavailableError';
  constructor(
    type: string,
    detail: string,
    retryAfterSeconds: number,
    options: HttpErrorOptions = {},
  ) {
    super(503, type, 'Service unavailable', {
      expose: true,
      ...options,
      detail,
      headers: {
        'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
        ...options.headers,
      },
    });
  }
}

/** 504: an upstream did not answer within our deadline. */
export class GatewayTimeoutError extends HttpError {
  override name = 'GatewayTimeoutError';
  constructor(type: string, detail: string, options: HttpErrorOptions = {}) {
    super(504, type, 'Gateway timeout', { expose: true, ...options, detail });
  }
}

/** 503: DynamoDB is throttled, down or too slow (lib/aws/dynamodb.ts decides which errors). */
export function storageUnavailable(cause?: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'storage-unavailable',
    'The data store is not answering right now; try again shortly.',
    2,
    { cause },
  );
}

/**
 * What a client is told when the service's configuration is wrong (a ConfigError, mapped by
 * lib/problems/codec.ts, or a table the store cannot use): 503 with the detail hidden, since only the
 * operator can act on it (the log says what is wrong).
 */
export class ServerMisconfiguredError extends ServiceUnavailableError {
  override name = 'ServerMisconfiguredError';
  constructor(cause: unknown) {
    super(
      'server-misconfigured',
      'The service is not configured correctly; the operator has been told.',
      30,
      { cause, expose: false },
    );
  }
}

/** 500: the opaque answer to anything unexpected (its detail shown only when `expose` says so). */
export class InternalError extends HttpError {
  override name = 'InternalError';
  constructor(options: HttpErrorOptions = {}) {
    super(500, 'internal-error', 'Internal server error', options);
  }
}

/**
 * Thrown when the environment or the operator's settings hold an invalid value; the message names
 * the variable. Not an HttpError: the problem codec answers it 503 server-misconfigured.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
