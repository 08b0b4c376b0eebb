// The problem codec: the one place that turns anything thrown into an RFC 9457 problem document.
// Errors carry their document (the error classes and each area's named errors: type, title, status,
// headers); this module decides what the client reads of it (5xx details hidden unless written
// for clients), maps what is not ours (a ConfigError: 503 server-misconfigured; anything else:
// the opaque 500), and writes and reads a failed job's stored problem. The HTTP replies,
// the summary jobs (store, service, worker) and MCP's tool errors use it.
import { ConfigError, HttpError, InternalError, ServerMisconfiguredError } from '../errors';

export const PROBLEM_TYPE_PREFIX = 'urn:tubesum:problem:';

/** What a client reads instead of a 5xx's own message, unless that was written for it. */
const HIDDEN_DETAIL = 'The server could not complete the request.';

/** An RFC 9457 problem document as clients see it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
  [extension: string]: unknown;
}

/**
 * A problem as a failed job's record keeps it (DynamoDB attribute `problem`): what it takes to
 * answer it again exactly, detail already cut to what the client may read. The shape is stored:
 * change it and older records must still be read.
 */
export interface StoredProblem {
  status: number;
  /** The slug, without PROBLEM_TYPE_PREFIX. */
  type: string;
  title: string;
  detail: string;
  extensions: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * Any thrown value as the HttpError that answers it: ours as they are, a bad configuration as
 * 503 server-misconfigured (the only place that mapping is made), anything else an opaque 500
 * that keeps the value as its `cause` for the log.
 */
export function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ConfigError) return new ServerMisconfiguredError(error);
  return new InternalError({ cause: error });
}

/** What the client reads of an error's message: all of it, unless it is a 5xx's not meant for it. */
function clientDetail(error: HttpError): string {
  return error.expose ? error.message : HIDDEN_DETAIL;
}

/** The client-facing problem for any thrown value; 5xx details are hidden unless meant for clients. */
export function toProblem(thrown: unknown, requestId: string): Problem {
  const error = asHttpError(thrown);
  const problem: Problem = {
    type: PROBLEM_TYPE_PREFIX + error.type,
    title: error.title,
    status: error.status,
    detail: clientDetail(error),
    request_id: requestId,
  };
  // Extensions follow the standard members and can never overwrite them.
  for (const [key, value] of Object.entries(error.extensions)) {
    if (!(key in problem)) problem[key] = value;
  }
  return problem;
}

/** The response headers a thrown value's problem carries (Retry-After, WWW-Authenticate...). */
export function problemHeaders(thrown: unknown): Record<string, string> {
  return asHttpError(thrown).headers;
}

/** A thrown value's problem as a failed job's record keeps it (read back by storedError). */
export function storeProblem(thrown: unknown): StoredProblem {
  const error = asHttpError(thrown);
  return {
    status: error.status,
    type: error.type,
    title: error.title,
    detail: clientDetail(error),
    extensions: error.extensions,
    headers: error.headers,
  };
}

/** The error that answers a stored problem again, as the run that stored it would have. */
export function storedError(problem: StoredProblem): HttpError {
  // Its detail was cut to what the client may read when it was stored: all of it is exposed.
  return new HttpError(problem.status, problem.type, problem.title, {
    detail: problem.detail,
    extensions: { ...problem.extensions },
    headers: { ...problem.headers },
    expose: true,
  });
}

/** A stored problem as the client reads it (a failed job's `error`), with the job's request id. */
export function storedProblemDocument(problem: StoredProblem, requestId: string): Problem {
  return toProblem(storedError(problem), requestId);
}
