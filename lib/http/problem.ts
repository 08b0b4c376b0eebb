// RFC 9457 problem details: the one place that turns an error into what a client sees.
import { HttpError } from './errors';
import { baseHeaders, type Reply } from './reply';

export const PROBLEM_TYPE_PREFIX = 'urn:tubesum:problem:';

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
      detail: error.expose ? error.message : 'The server could not complete the request.',
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

/** A problem+json response for any thrown value. */
export function problemReply(error: unknown, requestId: string): Reply {
  const problem = toProblem(error, requestId);
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
