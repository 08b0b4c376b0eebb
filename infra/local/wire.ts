// The local host's reading and writing of HTTP: a request's body (up to the limit), a reply as
// a response, and a problem written straight to a socket for a request node:http could not
// parse (in place of its bare 400/408/431 without a body).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BadRequestError, HttpError } from '../../lib/errors';
import { exit } from '../../lib/http/exit';
import { errorReply } from '../../lib/problems/replies';
import type { Reply } from '../../lib/reply';

/** The most bytes of a request's line and headers (Node's default, written out): then 431. */
export const MAX_HEADER_BYTES = 16_384;

export const EMPTY = Buffer.alloc(0);

/** Why a body was not read: over the limit (announced or sent), or the client hung up. */
export type Unread = 'too-large' | 'client-gone';

/**
 * Reads the body, stopping as soon as it exceeds `limit` (the caller answers 413). A declared
 * Content-Length over the limit is answered before a single byte is read.
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
): Buffer | Promise<Buffer | Unread> {
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
export const bodyBytes = new WeakMap<ServerResponse, number>();

/** Writes a reply that has passed the exit, with the CORS headers. */
export function send(
  response: ServerResponse,
  reply: Reply,
  cors: Record<string, string>,
  close = false,
) {
  const headers: Record<string, string | string[]> = { ...reply.headers, ...cors };
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

/** The problem for a request node:http could not parse (what its 'clientError' event gets). */
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

/** The problem for a request node:http could not parse, written to its socket, which closes. */
export function sendClientError(socket: Socket, error: NodeJS.ErrnoException, requestId: string) {
  const reply = exit(errorReply(clientErrorProblem(error), requestId), requestId);
  const body = Buffer.from(reply.body ?? '', 'utf8');
  const headers = { ...reply.headers, 'Content-Length': String(body.length), Connection: 'close' };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const status = `HTTP/1.1 ${reply.statusCode} ${STATUS_CODES[reply.statusCode] ?? ''}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${status}${head}\r\n`), body]), () => socket.destroy());
}
