// What the local host does with one request, as API Gateway's HTTP API does deployed: a CORS
// preflight answered at the edge, a request no route takes handed to the `$default` route's
// function, a body over the limit refused, a request waiting for what its function needs (the
// database), then the route's function invoked with a payload-format-2.0 event. The host's own
// answers leave through the same exit as the functions'.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PayloadTooLargeError } from '../../../lib/errors';
import type { LambdaHandler } from '../../../lib/http/entry';
import { exit } from '../../../lib/http/exit';
import {
  corsPreflightHeaders,
  corsResponseHeaders,
  originAllowed,
} from '../../../lib/http/headers/cors';
import type { createPathMatcher } from '../../../lib/http/paths';
import { errorReply } from '../../../lib/problems/replies';
import type { Reply } from '../../../lib/reply';
import type { FunctionName, RouteDef } from '../../../lib/routes/route';
import type { AccessLogEntry } from '../../access-log';
import { apiGatewayEvent, lambdaContext } from '../event';
import { EMPTY, readBody, send, type Unread } from '../wire';
import { accessEntry, type Served } from './access';
import type { concurrentInvokeStore } from './handlers';

/** What every request of one server shares. */
export interface Serving {
  paths: ReturnType<typeof createPathMatcher>;
  handlerOf: (name: FunctionName) => LambdaHandler | Promise<LambdaHandler>;
  invokeStore: Awaited<ReturnType<typeof concurrentInvokeStore>>;
  maxBodyBytes: number;
  corsOrigins: readonly string[];
  unrouted: FunctionName;
  waitFor?: (name: FunctionName) => Promise<void> | undefined;
  accessLog?: (entry: AccessLogEntry) => void;
}

/** One request under way: where it answers, and what its access line will say. */
interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  requestId: string;
  served: Served;
  /** The CORS headers every reply to it carries (none for an origin not allowed). */
  cors: Record<string, string>;
}

/** The server's 'request' listener. */
export function requestListener(serving: Serving) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const startedAt = performance.now();
    const requestId = randomUUID();
    // Requests no route takes go to $default, as on API Gateway.
    const served: Served = { routeKey: '$default', ip: request.socket.remoteAddress ?? '-' };
    const { accessLog } = serving;
    if (accessLog) {
      response.once('close', () =>
        accessLog(accessEntry(request, response, requestId, startedAt, served)),
      );
    }
    const origin = request.headers.origin;
    const cors = originAllowed(origin, serving.corsOrigins)
      ? corsResponseHeaders(origin, serving.corsOrigins)
      : {};
    const exchange: Exchange = { request, response, requestId, served, cors };
    route(serving, exchange).catch((error: unknown) => crashed(exchange, error));
  };
}

/** The host's own answer (API Gateway's, deployed), through the same exit. */
const answer = (exchange: Exchange, reply: Reply, close = false) =>
  send(exchange.response, exit(reply, exchange.requestId), exchange.cors, close);

/** Hands the event to a function, as API Gateway's integration does, and sends its reply. */
async function invoke(
  serving: Serving,
  exchange: Exchange,
  name: FunctionName,
  event: APIGatewayProxyEventV2,
) {
  // No await for a handler loaded already: a request needs no extra turn of the event loop.
  const found = serving.handlerOf(name);
  const handler = found instanceof Promise ? await found : found;
  const invokedAt = performance.now();
  const context = lambdaContext(name, exchange.requestId);
  const reply = await serving.invokeStore.run({}, () => handler(event, context));
  exchange.served.integrationMs = Math.round(performance.now() - invokedAt);
  exchange.served.integrationStatus = reply.statusCode;
  // The function's reply has passed the exit already.
  send(exchange.response, reply, exchange.cors);
}

async function route(serving: Serving, exchange: Exchange) {
  const { request, response, requestId, served } = exchange;
  const target = request.url ?? '/';
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const method = (request.method ?? 'GET').toUpperCase();
  const match = serving.paths.match(path, method);
  const origin = request.headers.origin;
  if (
    match.kind === 'method-not-allowed' &&
    method === 'OPTIONS' &&
    originAllowed(origin, serving.corsOrigins)
  ) {
    response.writeHead(204, corsPreflightHeaders(origin, serving.corsOrigins));
    response.end();
    return;
  }
  if (match.kind !== 'found') {
    // The $default route's function answers it (404, or 405 with Allow); its body is unread.
    request.resume();
    const event = apiGatewayEvent(request, EMPTY, '$default', undefined, requestId);
    await invoke(serving, exchange, serving.unrouted, event);
    return;
  }
  const { route, pathParameters } = match;
  // A HEAD request has its own route, as deployed: the functions serve it as its GET route.
  served.routeKey = method === 'HEAD' ? `HEAD ${route.path}` : `${route.method} ${route.path}`;
  // A handler's first load runs while the body arrives and the database starts, not after;
  // a failure is answered when the request invokes it.
  const loading = serving.handlerOf(route.function);
  if (loading instanceof Promise) loading.catch(() => undefined);
  const pending = readBody(request, serving.maxBodyBytes);
  const body = bodyOf(
    serving,
    exchange,
    route,
    pending instanceof Buffer ? pending : await pending,
  );
  if (body === undefined) return;
  const waiting = serving.waitFor?.(route.function);
  if (waiting && !(await available(exchange, route, waiting))) return;
  const event = apiGatewayEvent(request, body, served.routeKey, pathParameters, requestId);
  await invoke(serving, exchange, route.function, event);
}

/** The request's body, or undefined once the request is answered (too large, or gone). */
function bodyOf(
  serving: Serving,
  exchange: Exchange,
  route: RouteDef,
  body: Buffer | Unread,
): Buffer | undefined {
  const { request, response } = exchange;
  if (body === 'client-gone') {
    exchange.served.error = 'The client closed the connection before sending the whole body';
    response.destroy();
    return undefined;
  }
  if (body === 'too-large') {
    // Answer without reading the rest; the connection cannot be reused after that.
    const tooLarge = new PayloadTooLargeError(serving.maxBodyBytes);
    answer(exchange, errorReply(tooLarge, exchange.requestId, route), true);
    response.on('finish', () => request.destroy());
    return undefined;
  }
  return body;
}

/** Whether the route's function may run once `waiting` settles; if it fails, answered here. */
async function available(
  exchange: Exchange,
  route: RouteDef,
  waiting: Promise<void>,
): Promise<boolean> {
  // Not the handler's doing: answered as the host's own problem, not logged as a crash.
  const unavailable = await waiting.then(
    () => undefined,
    (error: unknown) => error ?? new Error('not ready'),
  );
  if (unavailable === undefined) return true;
  answer(exchange, errorReply(unavailable, exchange.requestId, route));
  return false;
}

/** What API Gateway does when a Lambda crashes, in our error shape. */
function crashed(exchange: Exchange, error: unknown) {
  console.error(
    JSON.stringify({
      level: 'ERROR',
      message: 'handler crashed',
      request_id: exchange.requestId,
      error: String(error),
    }),
  );
  if (!exchange.response.headersSent) answer(exchange, errorReply(error, exchange.requestId));
  else exchange.response.destroy();
}
