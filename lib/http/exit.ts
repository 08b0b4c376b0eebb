// The one exit every Lambda response passes through, whichever path made it (a route's handler,
// API Gateway's `$default` route, a configuration failure, a crash): it carries the request's
// id (`X-Request-Id`, the same as a problem's `request_id` and every log line's) and the headers
// every answer has. Dependency-free, so that /health stays a few hundred bytes.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { baseHeaders, type Reply } from '../reply';

/** The request id API Gateway gave the request (what the logs and problems carry). */
export const requestIdOf = (event: APIGatewayProxyEventV2): string =>
  event.requestContext?.requestId ?? 'unknown';

/** The reply as it leaves: the base headers unless it set its own, and always the request id. */
export function exit(reply: Reply, requestId: string): Reply {
  return {
    ...reply,
    headers: { ...baseHeaders, ...reply.headers, 'X-Request-Id': requestId },
  };
}
