// Serves the route table over node:http the way API Gateway's HTTP API does: each request
// becomes a payload-format-2.0 event for the route's Lambda handler, and the handler's result
// becomes the response. A request no route takes goes to the function of API Gateway's
// `$default` route (its 404, or 405 for a wrong method), as deployed; HEAD is served wherever
// GET is. The host's own answers (413, a database still starting, a crash) leave through the
// same exit as the functions' (lib/http/exit.ts). Connections: connections.ts; reading and
// writing: wire.ts.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { InvokeStore } from '@aws/lambda-invoke-store';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../../lib/config';
import { PayloadTooLargeError } from '../../lib/errors';
import { type LambdaHandler, lazyEntry } from '../../lib/http/entry';
import { exit } from '../../lib/http/exit';
import {
  corsPreflightHeaders,
  corsResponseHeaders,
  originAllowed,
} from '../../lib/http/headers/cors';
import { createPathMatcher } from '../../lib/http/paths';
import { errorReply } from '../../lib/problems/replies';
import type { Reply } from '../../lib/reply';
import { type FunctionName, type RouteDef, UNROUTED_FUNCTION } from '../../lib/routes/route';
import type { AccessLogEntry } from '../access-log';
import { loadFunction } from '../function-files';
import {
  defaultMaxConnections,
  FIRST_REQUEST_TIMEOUT_MS,
  limitConnections,
  responseOf,
} from './connections';
import { apiGatewayEvent, lambdaContext } from './event';
import { bodyBytes, EMPTY, MAX_HEADER_BYTES, readBody, send, sendClientError } from './wire';

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
  /** Loads every route's handler now rather than at its first request. */
  preload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds each handler from its `functions/` file (infra/function-files.ts) with `config`, as Lambda would from its own,
 * and `services`: what the local host hands them instead of what they would build from the
 * Config (POST /summarize's queue: the host's in-process one rather than SQS).
 */
export function functionLoader(config: Config, services: Record<string, unknown> = {}) {
  return async (name: FunctionName): Promise<LambdaHandler> => {
    const module = (await loadFunction(name)) as {
      create: (config: Config, services?: Record<string, unknown>) => LambdaHandler;
    };
    // Built now (preload), as Lambda builds it on an instance's first event; one that cannot
    // be (a bad setting) answers 503 and is built again at the next request, as deployed.
    let built: LambdaHandler | undefined;
    try {
      built = module.create(config, services);
    } catch {
      // Answered, and logged, by the entry at the first request.
    }
    // Each invocation as Lambda's entry point serves it (lib/http/entry.ts): its own log
    // keys, and the reply through the one exit.
    return lazyEntry(() => built ?? module.create(config, services));
  };
}

/**
 * Unlike one Lambda instance, the local host runs invocations side by side. It does what
 * Lambda's multi-concurrency runtime does: each invocation runs in its own invoke store.
 * Powertools keeps per-request log keys (request_id) apart only when AWS_LAMBDA_MAX_CONCURRENCY
 * is set in the environment, as on such a runtime: `npm start` sets it (infra/local/local.env),
 * and so do the tests (vitest.config.ts).
 */
export function concurrentInvokeStore() {
  return InvokeStore.getInstanceAsync(true);
}

/** Starts the HTTP server; resolves once it listens. */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const invokeStore = await concurrentInvokeStore();
  const paths = createPathMatcher(options.routes);
  const unrouted = options.unroutedFunction ?? UNROUTED_FUNCTION;
  const load = options.loadHandler;
  const handlers = new Map<FunctionName, Promise<LambdaHandler>>();
  const loaded = new Map<FunctionName, LambdaHandler>();
  const loading = (name: FunctionName): Promise<LambdaHandler> => {
    let pending = handlers.get(name);
    if (!pending) {
      pending = load(name).then((handler) => {
        loaded.set(name, handler);
        return handler;
      });
      handlers.set(name, pending);
    }
    return pending;
  };

  /** What the access line needs to know about a request besides the response itself. */
  interface Served {
    routeKey: string;
    /** Read at the start: a socket the client destroyed no longer knows its peer. */
    ip: string;
    integrationMs?: number;
    integrationStatus?: number;
    /** What went wrong on the client's side, for the access line. */
    error?: string;
  }

  const logAccess = (
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    startedAt: number,
    served: Served,
  ) => {
    const finished = response.writableFinished;
    // The response may close before the request's own 'close' tells readBody the client left.
    const gone = request.complete
      ? 'The client closed the connection before the response was sent'
      : 'The client closed the connection before sending the whole body';
    options.accessLog?.({
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
    });
  };

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  limitConnections(server, {
    firstRequestTimeoutMs: options.firstRequestTimeoutMs ?? FIRST_REQUEST_TIMEOUT_MS,
    maxConnections: options.maxConnections ?? defaultMaxConnections(),
  });
  server.on('request', async (request: IncomingMessage, response: ServerResponse) => {
    const startedAt = performance.now();
    const requestId = randomUUID();
    // Requests no route takes go to $default, as on API Gateway.
    const served: Served = { routeKey: '$default', ip: request.socket.remoteAddress ?? '-' };
    if (options.accessLog) {
      response.once('close', () => logAccess(request, response, requestId, startedAt, served));
    }
    const origin = request.headers.origin;
    const cors = originAllowed(origin, options.corsOrigins)
      ? corsResponseHeaders(origin, options.corsOrigins)
      : {};
    /** Hands the event to a function, as API Gateway's integration does, and sends its reply. */
    const invoke = async (name: FunctionName, event: APIGatewayProxyEventV2) => {
      const handler = loaded.get(name) ?? (await loading(name));
      const invokedAt = performance.now();
      const reply = await invokeStore.run({}, () => handler(event, lambdaContext(name, requestId)));
      served.integrationMs = Math.round(performance.now() - invokedAt);
      served.integrationStatus = reply.statusCode;
      // The function's reply has passed the exit already (lib/http/entry.ts).
      send(response, reply, cors);
    };
    /** The host's own answer (API Gateway's, deployed), through the same exit. */
    const answer = (reply: Reply, close = false) =>
      send(response, exit(reply, requestId), cors, close);
    try {
      const target = request.url ?? '/';
      const queryAt = target.indexOf('?');
      const path = queryAt === -1 ? target : target.slice(0, queryAt);
      const method = (request.method ?? 'GET').toUpperCase();
      const match = paths.match(path, method);
      if (
        match.kind === 'method-not-allowed' &&
        method === 'OPTIONS' &&
        originAllowed(origin, options.corsOrigins)
      ) {
        response.writeHead(204, corsPreflightHeaders(origin, options.corsOrigins));
        response.end();
        return;
      }
      if (match.kind !== 'found') {
        // The $default route's function answers it (404, or 405 with Allow); its body is unread.
        request.resume();
        await invoke(unrouted, apiGatewayEvent(request, EMPTY, '$default', undefined, requestId));
        return;
      }
      const { route, pathParameters } = match;
      // A HEAD request has its own route, as deployed (infra/constructs/service-api.ts): the
      // functions serve it as its GET route (servingRouteKey).
      served.routeKey = method === 'HEAD' ? `HEAD ${route.path}` : `${route.method} ${route.path}`;
      const pending = readBody(request, options.maxBodyBytes);
      const body = pending instanceof Buffer ? pending : await pending;
      if (body === 'client-gone') {
        served.error = 'The client closed the connection before sending the whole body';
        response.destroy();
        return;
      }
      if (body === 'too-large') {
        // Answer without reading the rest; the connection cannot be reused after that.
        const tooLarge = new PayloadTooLargeError(options.maxBodyBytes);
        answer(errorReply(tooLarge, requestId, route), true);
        response.on('finish', () => request.destroy());
        return;
      }
      const waiting = options.waitFor?.(route.function);
      if (waiting) {
        // Not the handler's doing: answered as the host's own problem, not logged as a crash.
        const unavailable = await waiting.then(
          () => undefined,
          (error: unknown) => error ?? new Error('not ready'),
        );
        if (unavailable !== undefined) {
          answer(errorReply(unavailable, requestId, route));
          return;
        }
      }
      await invoke(
        route.function,
        apiGatewayEvent(request, body, served.routeKey, pathParameters, requestId),
      );
    } catch (error) {
      // What API Gateway does when a Lambda crashes, in our error shape.
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'handler crashed',
          request_id: requestId,
          error: String(error),
        }),
      );
      if (!response.headersSent) answer(errorReply(error, requestId));
      else response.destroy();
    }
  });
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
    preload: async () => {
      await Promise.all([...new Set(options.routes.map((r) => r.function))].map(loading));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
