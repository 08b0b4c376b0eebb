// The API as the page calls it: same origin, relative paths (so the page works under any base
// path), JSON in and out, and every failure turned into words a person can read.
// The bodies' types come from the API's own schemas (types only: no zod in the page).
import type {
  apiKeyListSchema,
  apiKeySchema,
  createdApiKeySchema,
} from '../lib/accounts/api-keys/schemas';
import type { tokenResponseSchema } from '../lib/accounts/schemas';
import type { askResponseSchema } from '../lib/ask/schemas';
import type { collectionAskResponseSchema, collectionSchema } from '../lib/collections/schemas';
import type { problemSchema } from '../lib/problems/schema';
import type * as z from '../lib/schema';
import type { jobListSchema, jobSchema } from '../lib/summaries/jobs/schemas';
import type { summarizeResponseSchema } from '../lib/summaries/schemas';

export type Problem = z.output<typeof problemSchema>;
export type Token = z.output<typeof tokenResponseSchema>;
export type Summary = z.output<typeof summarizeResponseSchema>;
export type Job = z.output<typeof jobSchema>;
export type JobList = z.output<typeof jobListSchema>;
/** POST /ask's answer (not to be confused with `Answer`, any call's result). */
export type AskAnswer = z.output<typeof askResponseSchema>;
/** A playlist or channel summarized as one (POST /collections, GET /collections/{id}). */
export type Collection = z.output<typeof collectionSchema>;
/** POST /collections/{id}/ask's answer. */
export type CollectionAnswer = z.output<typeof collectionAskResponseSchema>;
export type ApiKey = z.output<typeof apiKeySchema>;
export type ApiKeyList = z.output<typeof apiKeyListSchema>;
/** A key just made, with its secret (shown this once). */
export type NewApiKey = z.output<typeof createdApiKeySchema>;

/** A problem the API answered (or one the page made up for a failure without one). */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

/** The token was refused (expired, or its user is gone): the person must sign in again. */
export class SignedOutError extends Error {}

interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A problem for a failure that is not the API's own answer. */
function pageProblem(status: number, detail: string): Problem {
  return { type: 'about:blank', title: 'Error', status, detail, request_id: '' };
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as Problem).detail === 'string' &&
  typeof (body as Problem).status === 'number';

/**
 * Calls the API. Resolves with 2xx answers.
 * @throws SignedOutError for a 401 to a call made with a token; ApiError for any other failure,
 *   the server unreachable included.
 */
export async function call<T>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      // The token travels in a header; no cookie is ever sent or kept.
      credentials: 'omit',
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(
      pageProblem(0, 'The server could not be reached. Check the connection and try again.'),
    );
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok) return { status: response.status, body: body as T, headers: response.headers };
  if (response.status === 401 && options.token) throw new SignedOutError();
  throw new ApiError(
    isProblem(body)
      ? body
      : pageProblem(
          response.status,
          `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}; try again in a moment.`,
        ),
  );
}

/** The id of the job a Location or Content-Location header names (`summaries/{id}`). */
export function jobIdFrom(headers: Headers): string | undefined {
  const location = headers.get('location') ?? headers.get('content-location') ?? '';
  return /\/summaries\/([A-Za-z0-9_-]+)$/.exec(location)?.[1];
}
