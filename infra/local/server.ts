// Serves the route table over node:http the way API Gateway's HTTP API does: each request
// becomes a payload-format-2.0 event for the route's Lambda handler, and the handler's result
// becomes the response. A request no route takes goes to the function of API Gateway's
// `$default` route (its 404, or 405 for a wrong method), as deployed; HEAD is served wherever
// GET is. Each function's handler is loaded at the first request that needs it.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LambdaHandler } from '../../lib/http/entry';
import { createPathMatcher } from '../../lib/http/paths';
import { type FunctionName, type RouteDef, UNROUTED_FUNCTION } from '../../lib/routes/route';
import type { AccessLogEntry } from '../access-log';
import {
  defaultMaxConnections,
  FIRST_REQUEST_TIMEOUT_MS,
  limitConnections,
  responseOf,
} from './connections';
import { concurrentInvokeStore, handlerCache } from './server/handlers';
import { requestListener } from './server/requests';
import { MAX_HEADER_BYTES, sendClientError } from './wire';

export { concurrentInvokeStore, functionLoader } from './server/handlers';

export interface LocalServerOptions {
  host: string;
  port: number;
  routes: readonly RouteDef[];
  maxBodyBytes: number;
  /** Origins allowed by CORS (CORS_ORIGINS); empty means no CORS headers at all. */
  corsOrigins: readonly string[];
  /** Loads a route's handler (functionLoader builds those of functions/ from a Config). */
  loadHandler: (name: FunctionName) => Promise<LambdaHandler>;
  /**
   * What a route's handler must wait for before it runs (the host's database, while it starts):
   * a promise that rejects with the error to answer, or undefined to run at once.
   */
  waitFor?: (name: FunctionName) => Promise<void> | undefined;
  /** The function of API Gateway's `$default` route (default: UNROUTED_FUNCTION). */
  unroutedFunction?: FunctionName;
  /** Receives one access line per request (as API Gateway's access log would); none if unset. */
  accessLog?: (entry: AccessLogEntry) => void;
  /**
   * How long a new connection may stay silent before its first request (default
   * FIRST_REQUEST_TIMEOUT_MS); then it is closed.
   */
  firstRequestTimeoutMs?: number;
  /** How many connections may be open at once (default: defaultMaxConnections()). */
  maxConnections?: number;
}

export interface LocalServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts the HTTP server; resolves once it listens. */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  limitConnections(server, {
    firstRequestTimeoutMs: options.firstRequestTimeoutMs ?? FIRST_REQUEST_TIMEOUT_MS,
    maxConnections: options.maxConnections ?? defaultMaxConnections(),
  });
  server.on(
    'request',
    requestListener({
      paths: createPathMatcher(options.routes),
      handlerOf: handlerCache(options.loadHandler),
      invokeStore: await concurrentInvokeStore(),
      maxBodyBytes: options.maxBodyBytes,
      corsOrigins: options.corsOrigins,
      unrouted: options.unroutedFunction ?? UNROUTED_FUNCTION,
      waitFor: options.waitFor,
      accessLog: options.accessLog,
    }),
  );
  // Slow clients must not hold connections forever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  // What node:http answers with a bare status line, as our problem+json.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || responseOf(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    sendClientError(socket, error, randomUUID());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
