// A local https server for client ID metadata documents (test/fixtures/tls: a self-signed
// certificate for client.example.test and 127.0.0.1), with a resolver that gives those names
// the loopback address, as a public DNS name resolving to a private address would (DNS
// rebinding). It counts connections, so a test can show that a refused URL was never fetched.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';

const TLS_DIR = new URL('../fixtures/tls/', import.meta.url);
export const TEST_CA = readFileSync(new URL('client-metadata.crt', TLS_DIR), 'utf8');
const TEST_KEY = readFileSync(new URL('client-metadata.key', TLS_DIR), 'utf8');

/** Names the resolver knows, all on this machine. */
export const METADATA_HOST = 'client.example.test';
export const REBIND_HOST = 'rebind.example.test';

/** A resolver for METADATA_HOST and REBIND_HOST (both 127.0.0.1); nothing else resolves. */
export const testLookup = ((
  hostname: string,
  options: { all?: boolean },
  callback: (...args: unknown[]) => void,
) => {
  if (hostname !== METADATA_HOST && hostname !== REBIND_HOST) {
    callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  } else if (options?.all) {
    callback(null, [{ address: '127.0.0.1', family: 4 }]);
  } else {
    callback(null, '127.0.0.1', 4);
  }
}) as unknown as LookupFunction;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface MetadataServer {
  port: number;
  /** `https://client.example.test:<port><path>`. */
  url(path: string, host?: string): string;
  /** TLS connections accepted so far. */
  readonly connections: number;
  /** Paths requested so far. */
  readonly requests: string[];
  /** What a path answers. */
  serve(path: string, handler: Handler): void;
  /** Answers `path` with this JSON document. */
  document(path: string, body: unknown): void;
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1, any free port, with the certificate for METADATA_HOST (or
 * another certificate and key: `tls`).
 */
export async function startMetadataServer(
  tls: { cert: string; key: string } = { cert: TEST_CA, key: TEST_KEY },
): Promise<MetadataServer> {
  const handlers = new Map<string, Handler>();
  const requests: string[] = [];
  let connections = 0;
  const server: Server = createServer(tls, (request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const handler = handlers.get(path);
    if (handler) handler(request, response);
    else response.writeHead(404).end();
  });
  server.on('secureConnection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path, host = METADATA_HOST) => `https://${host}:${port}${path}`,
    get connections() {
      return connections;
    },
    requests,
    serve: (path, handler) => handlers.set(path, handler),
    document(path, body) {
      handlers.set(path, (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
