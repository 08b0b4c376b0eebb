// RFC 9457 problem details: the one place that turns an error into what a client sees.
import { HttpError } from '../errors';
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
