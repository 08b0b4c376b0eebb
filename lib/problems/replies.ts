// RFC 9457 problem details as HTTP replies: problem+json, and the OAuth endpoints' own error
// form. What a client reads of an error is the codec's to decide.

import type { HttpError } from '../errors';
import { asHttpError, toProblem } from './codec';

/** A reply of the kernel's shape whose body is always there: a problem always says itself. */
export interface Reply {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

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

/** An OAuth endpoint's status and `error` code for an error (see oauthErrorReply). */
function oauthAnswer(answer: HttpError, invalid: string): { status: number; code: string } {
  const own = answer.extensions.error;
  const status = answer.status;
  if (typeof own === 'string') return { status, code: own };
  if (status === 400 || status === 413 || status === 415 || status === 422) {
    return { status: status === 413 ? 413 : 400, code: invalid };
  }
  if (status === 429 || status === 503) return { status, code: 'temporarily_unavailable' };
  return { status, code: 'server_error' };
}

/**
 * An OAuth endpoint's error (RFC 6749 5.2, RFC 7591 3.2.2, RFC 7009 2.2.1): JSON with `error` and
 * `error_description` (and `request_id`, as every error of ours has). An error that names its
 * OAuth code keeps it and its status; a request refused by the route's own
 * checks (body, media type, fields) is a 400 with `invalid`; a 429 or 503 is
 * temporarily_unavailable and anything else server_error, with their statuses and headers.
 */
export function oauthErrorReply(error: unknown, requestId: string, invalid: string): Reply {
  const answer = asHttpError(error);
  const problem = toProblem(answer, requestId);
  const { status, code } = oauthAnswer(answer, invalid);
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

/** How a route writes its errors (its table entry's `oauthErrors` and `oauth2Errors`). */
export interface ErrorForm {
  /** RouteDef's oauthErrors: the route answers OAuth's JSON errors with this code. */
  oauthErrors?: 'invalid_request' | 'invalid_client_metadata' | undefined;
  /** RouteDef's oauth2Errors: problems also carry RFC 6749's error fields. */
  oauth2Errors?: boolean | undefined;
}

/**
 * The reply to any thrown value, in the form of the route that threw it: an OAuth endpoint's
 * error, or a problem (with OAuth2's fields on /token); a plain problem without a form.
 */
export function errorReply(error: unknown, requestId: string, form: ErrorForm = {}): Reply {
  return form.oauthErrors
    ? oauthErrorReply(error, requestId, form.oauthErrors)
    : problemReply(error, requestId, { oauth2: form.oauth2Errors });
}

/** The status errorReply answers a thrown value with, in a form. */
export function errorStatus(error: unknown, form: ErrorForm = {}): number {
  const answer = asHttpError(error);
  return form.oauthErrors ? oauthAnswer(answer, form.oauthErrors).status : answer.status;
}
