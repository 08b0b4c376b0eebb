// The access line of a request, in the fields API Gateway's access log has deployed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessLogEntry } from '../../access-log';
import { bodyBytes } from '../wire';

/** What the access line needs to know about a request besides the response itself. */
export interface Served {
  routeKey: string;
  /** Read at the start: a socket the client destroyed no longer knows its peer. */
  ip: string;
  integrationMs?: number;
  integrationStatus?: number;
  /** What went wrong on the client's side, for the access line. */
  error?: string;
}

/** The access line of a request whose response has closed. */
export function accessEntry(
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  startedAt: number,
  served: Served,
): AccessLogEntry {
  const finished = response.writableFinished;
  // The response may close before the request's own 'close' tells readBody the client left.
  const gone = request.complete
    ? 'The client closed the connection before the response was sent'
    : 'The client closed the connection before sending the whole body';
  return {
    requestId,
    time: new Date().toISOString(),
    ip: served.ip,
    userAgent: request.headers['user-agent'] ?? '-',
    method: request.method ?? '-',
    routeKey: served.routeKey,
    status: response.headersSent ? response.statusCode : '-',
    protocol: `HTTP/${request.httpVersion}`,
    responseLength: bodyBytes.get(response) ?? 0,
    latencyMs: Math.round(performance.now() - startedAt),
    integrationLatencyMs: served.integrationMs ?? '-',
    integrationStatus: served.integrationStatus ?? '-',
    integrationError: '-',
    error: served.error ?? (finished ? '-' : gone),
  };
}
