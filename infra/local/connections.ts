// How many connections the local host keeps, and for how long a silent one: connections that
// send no request are closed, and their number is capped, so that a crowd of silent sockets
// cannot keep real clients out.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection may wait before it sends its first request. Long enough for a browser's
 * preconnected socket to be used; after the first request, Node's own timeouts take over
 * (keep-alive 5 s between requests, headersTimeout and requestTimeout in server.ts).
 */
export const FIRST_REQUEST_TIMEOUT_MS = 30_000;
/** The most connections the host keeps open at once, unless it has fewer file descriptors. */
export const MAX_CONNECTIONS = 1_000;

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

/**
 * A connection's response in progress, if any: node:http's own field, which its own
 * socketOnError reads too.
 */
export const responseOf = (socket: Socket) =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;

/**
 * Closes connections that send no request within `firstRequestTimeoutMs`, and keeps at most
 * `maxConnections` open: a new one beyond that closes the connection that has been silent
 * longest, else one idle between keep-alive requests; it is itself closed only if every
 * connection is being answered. server.maxConnections alone would turn clients away for as
 * long as silent sockets hold every place. Costs a request one Set lookup.
 */
export function limitConnections(
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
