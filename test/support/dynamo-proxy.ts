// A DynamoDB that goes away on cue: forwards every request to the run's DynamoDB Local until it
// is told to fail, then drops each connection (as an unreachable table does; the SDK retries,
// then the stores answer 503 storage-unavailable). `failAfter('UpdateItem')` lets requests through
// up to and including the next UpdateItem: a run takes its lease, then loses the table.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DynamoProxy {
  /** `http://127.0.0.1:<port>`: AWS_ENDPOINT_URL_DYNAMODB of the code under test. */
  endpoint: string;
  /** Fails every request from now on (no action), or after the next one of `action`. */
  failAfter(action?: string): void;
  /** Forwards every request again. */
  restore(): void;
  /** The action of each request forwarded so far, in order (e.g. `GetItem`): what was called. */
  readonly calls: readonly string[];
  close(): Promise<void>;
}

export async function startDynamoProxy(target: string): Promise<DynamoProxy> {
  const upstream = new URL(target);
  let down = false;
  let downAfter: string | undefined;
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    if (down) {
      request.socket.destroy();
      return;
    }
    // e.g. DynamoDB_20120810.UpdateItem
    const action = String(request.headers['x-amz-target'] ?? '').split('.')[1];
    if (downAfter !== undefined && action === downAfter) {
      down = true;
      downAfter = undefined;
    }
    calls.push(action ?? '');
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failAfter(action) {
      if (action === undefined) down = true;
      else downAfter = action;
    },
    restore() {
      down = false;
      downAfter = undefined;
    },
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
