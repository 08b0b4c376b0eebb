// RFC 9457 problem details as HTTP replies: problem+json, and the OAuth endpoints' own error
// form. What a client reads of an error is the codec's (lib/problems/codec.ts) to decide.
import type { Reply } from '../http/reply';
import type { RouteDef } from '../routes/route';
import { asHttpError, toProblem } from './codec';

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
  // Made once: a value that is not ours becomes a new opaque 500 at each conversion.
  const answer = asHttpError(error);
  const problem = toProblem(answer, requestId);
  if (options.oauth2) {
    problem.error = oauth2Error(problem.status);
    problem.error_description = problem.detail;
  }
  return {
    statusCode: problem.status,
    headers: {
      ...answer.headers,
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
  const answer = asHttpError(error);
  const problem = toProblem(answer, requestId);
  const own = answer.extensions.error;
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
      ...answer.headers,
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
