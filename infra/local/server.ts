// Serves the route table over node:http the way API Gateway's HTTP API does: each request
// becomes a payload-format-2.0 event for the route's Lambda handler, and the handler's result
// becomes the response. Unknown paths are 404 and wrong methods 405, as problem+json; HEAD is
// served wherever GET is. Connections that send no request are closed, and their number is
// capped: a crowd of silent sockets cannot keep real clients out.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { InvokeStore } from '@aws/lambda-invoke-store';
import type { Config } from '../../lib/config';
import { BadRequestError, HttpError, PayloadTooLargeError } from '../../lib/errors';
import type { AccessLogEntry } from '../../lib/http/access-log';
import { corsPreflightHeaders, corsResponseHeaders, originAllowed } from '../../lib/http/cors';
import { invocation, type LambdaHandler } from '../../lib/http/handler';
import { problemReply, routeErrorReply } from '../../lib/http/problem';
import type { Reply } from '../../lib/http/reply';
import { createRouter, unroutedError } from '../../lib/http/router';
import type { HandlerName, RouteDef } from '../../lib/routes/route';
import { apiGatewayEvent, lambdaContext } from './event';

export interface LocalServerOptions {
  host: string;
  port: number;
  routes: readonly RouteDef[];
  maxBodyBytes: number;
  /** Origins allowed by CORS (CORS_ORIGINS); empty means no CORS headers at all. */
  corsOrigins: readonly string[];
  /** Loads a route's handler (functionLoader builds those of functions/ from a Config). */
  loadHandler: (name: HandlerName) => Promise<LambdaHandler>;
  /**
   * What a route's handler must wait for before it runs (the host's database, while it starts):
   * a promise that rejects with the error to answer, or undefined to run at once.
   */
  waitFor?: (name: HandlerName) => Promise<void> | undefined;
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

/**
 * How long a connection may wait before it sends its first request. Long enough for a browser's
 * preconnected socket to be used; after the first request, Node's own timeouts take over
 * (keep-alive 5 s between requests, headersTimeout and requestTimeout below).
 */
export const FIRST_REQUEST_TIMEOUT_MS = 30_000;
/** The most connections the host keeps open at once, unless it has fewer file descriptors. */
export const MAX_CONNECTIONS = 1_000;
/** The most bytes of a request's line and headers (Node's default, written out): then 431. */
export const MAX_HEADER_BYTES = 16_384;

/**
 * MAX_CONNECTIONS, or half this process's file descriptors if that is fewer (Linux tells, in
 * /proc): the other half stays for the host's own connections (DynamoDB, YouTube, models) and
 * files. Past the descriptor limit nothing is accepted at all, not even /health.
 */
export function defaultMaxConnections(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const files = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1]);
    if (files > 0) return Math.max(16, Math.min(MAX_CONNECTIONS, Math.floor(files / 2)));
  } catch {
    // Not Linux: no way to ask without a native module.
  }
  return MAX_CONNECTIONS;
}

/** 431: the request's line and headers are over MAX_HEADER_BYTES (the host's own answer). */
class HeadersTooLargeError extends HttpError {
  override name = 'HeadersTooLargeError';
  constructor() {
    super(431, 'headers-too-large', 'Request header fields too large', {
      detail: `The request line and headers may take at most ${MAX_HEADER_BYTES} bytes.`,
    });
  }
}

/** 408: the request's headers or body did not arrive in time (headersTimeout, requestTimeout). */
class RequestTimeoutError extends HttpError {
  override name = 'RequestTimeoutError';
  constructor() {
    super(408, 'request-timeout', 'Request timeout', {
      detail: 'The request did not arrive in time.',
    });
  }
}

/**
 * The problem for a request node:http could not parse (what its 'clientError' event gets),
 * in place of Node's bare 400/408/431 without a body.
 */
function clientErrorProblem(error: NodeJS.ErrnoException): HttpError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HeadersTooLargeError();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError();
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new BadRequestError('A chunk extension of the body is too long.');
    default:
      return new BadRequestError('The request is not valid HTTP/1.1.');
  }
}

export interface LocalServer {
  url: string;
  server: Server;
  /** Loads every route's handler now rather than at its first request. */
  preload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds each handler from `functions/<name>.ts` with `config`, as Lambda would from its own,
 * and `services`: what the local host hands them instead of what they would build from the
 * Config (POST /summarize's queue: the host's in-process one rather than SQS).
 */
export function functionLoader(config: Config, services: Record<string, unknown> = {}) {
  return async (name: HandlerName): Promise<LambdaHandler> => {
    const module = (await import(`../../functions/${name}.ts`)) as {
      create: (config: Config, services?: Record<string, unknown>) => LambdaHandler;
    };
    // Each invocation as Lambda's entry point serves it (lib/http/handler.ts): its own log
    // keys, and the reply through the one exit.
    return invocation(module.create(config, services));
  };
}

const EMPTY = Buffer.alloc(0);

/** Why a body was not read: over the limit (announced or sent), or the client hung up. */
type Unread = 'too-large' | 'client-gone';

/**
 * Reads the body, stopping as soon as it exceeds `limit` (the caller answers 413). A declared
 * Content-Length over the limit is answered before a single byte is read.
 */
function readBody(request: IncomingMessage, limit: number): Buffer | Promise<Buffer | Unread> {
  const declared = request.headers['content-length'];
  // Most GETs carry no body: answer at once, without a promise (promises cost more while the
  // invoke store's async hooks are on) or waiting for the stream's end.
  if (declared === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return EMPTY;
  }
  if (Number(declared) > limit) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.pause();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    // A client that hangs up mid-body: nothing to answer, nobody to answer to.
    request.on('error', () => resolve('client-gone'));
    request.on('close', () => {
      if (!request.complete) resolve('client-gone');
    });
  });
}

/** Body bytes of each response sent (headers passed to writeHead are not readable back). */
const bodyBytes = new WeakMap<ServerResponse, number>();

/**
 * Writes a reply. `requestId` is given for the host's own answers (404, 405, 413, a database
 * still starting), which carry it as API Gateway's would; a handler's reply has its own.
 */
function send(
  response: ServerResponse,
  reply: Reply,
  requestId: string | undefined,
  cors: Record<string, string>,
  close = false,
) {
  const headers: Record<string, string | string[]> = {
    ...(requestId === undefined ? {} : { 'X-Request-Id': requestId }),
    ...reply.headers,
    ...cors,
  };
  if (reply.cookies?.length) headers['Set-Cookie'] = reply.cookies;
  if (close) headers.Connection = 'close';
  const body = reply.body
    ? Buffer.from(reply.body, reply.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  headers['Content-Length'] = String(body.length);
  // For HEAD, the GET's headers and Content-Length: node:http leaves the body out.
  response.writeHead(reply.statusCode, headers);
  response.end(body);
  bodyBytes.set(response, response.req.method === 'HEAD' ? 0 : body.length);
}

/** A reply written straight to a socket (no request was parsed), closing the connection. */
function sendRaw(socket: Socket, reply: Reply, requestId: string) {
  const body = Buffer.from(reply.body ?? '', 'utf8');
  const headers = {
    ...reply.headers,
    'X-Request-Id': requestId,
    'Content-Length': String(body.length),
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const status = `HTTP/1.1 ${reply.statusCode} ${STATUS_CODES[reply.statusCode] ?? ''}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${status}${head}\r\n`), body]), () => socket.destroy());
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

/**
 * A connection's response in progress, if any: node:http's own field, which its own
 * socketOnError reads too.
 */
const responseOf = (socket: Socket) =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;

/**
 * Closes connections that send no request within `firstRequestTimeoutMs`, and keeps at most
 * `maxConnections` open: a new one beyond that closes the connection that has been silent
 * longest, else one idle between keep-alive requests; it is itself closed only if every
 * connection is being answered. server.maxConnections alone would turn clients away for as
 * long as silent sockets hold every place. Costs a request one Set lookup.
 */
function limitConnections(
  server: Server,
  limits: { firstRequestTimeoutMs: number; maxConnections: number },
) {
  const open = new Set<Socket>();
  /** Connections that have not sent a request yet, longest silent first. */
  const silent = new Set<Socket>();
  const evictable = (): Socket | undefined => {
    const longest = silent.values().next().value;
    if (longest !== undefined) return longest;
    for (const socket of open) if (responseOf(socket) === undefined) return socket;
    return undefined;
  };
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      const evicted = evictable();
      if (evicted === undefined) {
        socket.destroy();
        return;
      }
      silent.delete(evicted);
      open.delete(evicted);
      evicted.destroy();
    }
    open.add(socket);
    silent.add(socket);
    // node:http closes a connection whose socket times out when nobody else listens.
    socket.setTimeout(limits.firstRequestTimeoutMs);
    socket.once('close', () => {
      open.delete(socket);
      silent.delete(socket);
    });
  });
  // From the first request on, node:http's own timeouts apply (keep-alive, headers, request).
  server.on('request', (request: IncomingMessage) => {
    if (silent.delete(request.socket)) request.socket.setTimeout(0);
  });
}

/** Starts the HTTP server; resolves once it listens. */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const invokeStore = await concurrentInvokeStore();
  const router = createRouter(options.routes);
  const load = options.loadHandler;
  const handlers = new Map<HandlerName, Promise<LambdaHandler>>();
  const loaded = new Map<HandlerName, LambdaHandler>();
  const loading = (name: HandlerName): Promise<LambdaHandler> => {
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
    try {
      const target = request.url ?? '/';
      const queryAt = target.indexOf('?');
      const path = queryAt === -1 ? target : target.slice(0, queryAt);
      const method = (request.method ?? 'GET').toUpperCase();
      const match = router.match(path, method);
      if (match.kind === 'not-found') {
        send(response, problemReply(unroutedError(match, path), requestId), requestId, cors);
        return;
      }
      if (method === 'OPTIONS' && originAllowed(origin, options.corsOrigins)) {
        response.writeHead(204, corsPreflightHeaders(origin, options.corsOrigins));
        response.end();
        return;
      }
      if (match.kind !== 'found') {
        send(response, problemReply(unroutedError(match, path), requestId), requestId, cors);
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
        const reply = routeErrorReply(route, tooLarge, requestId);
        send(response, reply, requestId, cors, true);
        response.on('finish', () => request.destroy());
        return;
      }
      const waiting = options.waitFor?.(route.handler);
      if (waiting) {
        // Not the handler's doing: answered as the host's own problem, not logged as a crash.
        const unavailable = await waiting.then(
          () => undefined,
          (error: unknown) => error ?? new Error('not ready'),
        );
        if (unavailable !== undefined) {
          const reply = routeErrorReply(route, unavailable, requestId);
          send(response, reply, requestId, cors);
          return;
        }
      }
      const event = apiGatewayEvent(request, body, served.routeKey, pathParameters, requestId);
      const invoke = loaded.get(route.handler) ?? (await loading(route.handler));
      const invokedAt = performance.now();
      const reply = await invokeStore.run({}, () =>
        invoke(event, lambdaContext(route.handler, requestId)),
      );
      served.integrationMs = Math.round(performance.now() - invokedAt);
      served.integrationStatus = reply.statusCode;
      // The handler's own reply: its X-Request-Id is the exit's (lib/http/exit.ts), not added here.
      send(response, reply, undefined, cors);
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
      if (!response.headersSent) send(response, problemReply(error, requestId), requestId, cors);
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
    const requestId = randomUUID();
    sendRaw(socket, problemReply(clientErrorProblem(error), requestId), requestId);
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
      await Promise.all([...new Set(options.routes.map((r) => r.handler))].map(loading));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
