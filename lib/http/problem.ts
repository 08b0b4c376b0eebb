// RFC 9457 problem details: the one place that turns an error into what a client sees.
import { HttpError } from '../errors';
import type { RouteDef } from '../routes/route';
import { baseHeaders, type Reply } from './reply';

export const PROBLEM_TYPE_PREFIX = 'urn:tubesum:problem:';

/** The error codes of RFC 6749 5.2 that an OAuth2 token endpoint's problems carry. */
export const OAUTH2_ERRORS = [
  'invalid_request',
  'invalid_grant',
  'temporarily_unavailable',
] as const;

/** RFC 6749's code for a problem of the token endpoint (temporarily_unavailable: 4.1.2.1). */
function oauth2Error(status: number): (typeof OAUTH2_ERRORS)[number] {
  if (status === 401) return 'invalid_grant';
  return status === 429 || status >= 500 ? 'temporarily_unavailable' : 'invalid_request';
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
  [extension: string]: unknown;
}

/** The client-facing problem for any thrown value; 5xx details are hidden unless meant for clients. */
export function toProblem(error: unknown, requestId: string): Problem {
  if (error instanceof HttpError) {
    const problem: Problem = {
      type: PROBLEM_TYPE_PREFIX + error.type,
      title: error.title,
      status: error.status,
      detail: error.exposeDetail ? error.message : 'The server could not complete the request.',
      request_id: requestId,
    };
    // Extensions follow the standard members and can never overwrite them.
    for (const [key, value] of Object.entries(error.extensions)) {
      if (!(key in problem)) problem[key] = value;
    }
    return problem;
  }
  return {
    type: `${PROBLEM_TYPE_PREFIX}internal-error`,
    title: 'Internal server error',
    status: 500,
    detail: 'The server could not complete the request.',
    request_id: requestId,
  };
}

/**
 * A problem+json response for any thrown value. With `oauth2`, the problem also carries the
 * `error` and `error_description` an OAuth2 client reads (Swagger UI's Authorize dialog shows
 * them instead of a bare "Unauthorized").
 */
export function problemReply(
  error: unknown,
  requestId: string,
  options: { oauth2?: boolean } = {},
): Reply {
  const problem = toProblem(error, requestId);
  if (options.oauth2) {
    problem.error = oauth2Error(problem.status);
    problem.error_description = problem.detail;
  }
  return {
    statusCode: problem.status,
    headers: {
      ...baseHeaders,
      ...(error instanceof HttpError ? error.headers : {}),
      'Content-Type': 'application/problem+json; charset=utf-8',
    },
    body: JSON.stringify(problem),
  };
}

/**
 * An OAuth endpoint's error (RFC 6749 5.2, RFC 7591 3.2.2, RFC 7009 2.2.1): JSON with `error` and
 * `error_description` (and `request_id`, as every error of ours has). An error that names its
 * OAuth code (lib/oauth/errors.ts) keeps it and its status; a request refused by the route's own
 * checks (body, media type, fields) is a 400 with `invalid`; a 429 or 503 is
 * temporarily_unavailable and anything else server_error, with their statuses and headers.
 */
export function oauthErrorReply(error: unknown, requestId: string, invalid: string): Reply {
  const problem = toProblem(error, requestId);
  const own = error instanceof HttpError ? error.extensions.error : undefined;
  let status = problem.status;
  let code: string;
  if (typeof own === 'string') code = own;
  else if (status === 400 || status === 413 || status === 415 || status === 422) {
    code = invalid;
    if (status !== 413) status = 400;
  } else if (status === 429 || status === 503) code = 'temporarily_unavailable';
  else code = 'server_error';
  const fields = (problem.errors as { field: string; message: string }[] | undefined) ?? [];
  const description = [problem.detail, ...fields.map((f) => `${f.field} ${f.message}`)].join(' ');
  return {
    statusCode: status,
    headers: {
      ...baseHeaders,
      ...(error instanceof HttpError ? error.headers : {}),
      Pragma: 'no-cache',
      'Content-Type': 'application/json; charset=utf-8',
    },
    body: JSON.stringify({ error: code, error_description: description, request_id: requestId }),
  };
}

/** The error reply of a route: an OAuth endpoint's, or a problem (with OAuth2's fields on /token). */
export function routeErrorReply(route: RouteDef, error: unknown, requestId: string): Reply {
  return route.oauthErrors
    ? oauthErrorReply(error, requestId, route.oauthErrors)
    : problemReply(error, requestId, { oauth2: route.oauth2Errors });
}
