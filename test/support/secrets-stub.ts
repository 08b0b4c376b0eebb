// A local Secrets Manager that speaks GetSecretValue's wire protocol (AWS JSON 1.1 over HTTP:
// POST /, `X-Amz-Target: secretsmanager.GetSecretValue`, a JSON body `{"SecretId": ...}`). The
// real SDK client talks to it through AWS_ENDPOINT_URL_SECRETS_MANAGER. Unknown ids get
// Secrets Manager's 400 ResourceNotFoundException; every SecretId asked for is recorded.
//
//   const stub = await startSecretsStub({ 'arn:...:secret:jwt': 'value' });
//   ... AWS_ENDPOINT_URL_SECRETS_MANAGER: stub.endpoint, JWT_SECRET_ARN: 'arn:...:secret:jwt'
//   expect(stub.reads).toEqual(['arn:...:secret:jwt']);
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SecretsStub {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** The SecretId of every GetSecretValue call, in order. */
  readonly reads: readonly string[];
  /** Stores or replaces a secret. */
  put(secretId: string, value: string): void;
  close(): Promise<void>;
}

/** An ARN as Secrets Manager forms them (the name plus a 6-character suffix). */
export function secretArn(name: string): string {
  return `arn:aws:secretsmanager:us-east-1:123456789012:secret:${name}-AbCdEf`;
}

function reply(response: ServerResponse, status: number, body: unknown, errorType?: string) {
  response.writeHead(status, {
    'Content-Type': 'application/x-amz-json-1.1',
    'x-amzn-RequestId': randomUUID(),
    ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}),
  });
  response.end(JSON.stringify(body));
}

export async function startSecretsStub(initial: Record<string, string> = {}): Promise<SecretsStub> {
  const secrets = new Map(Object.entries(initial));
  const reads: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = request.headers['x-amz-target'];
      if (request.method !== 'POST' || target !== 'secretsmanager.GetSecretValue') {
        reply(response, 400, { __type: 'UnknownOperationException' }, 'UnknownOperationException');
        return;
      }
      const { SecretId: id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        SecretId: string;
      };
      reads.push(id);
      const value = secrets.get(id);
      if (value === undefined) {
        const type = 'ResourceNotFoundException';
        reply(
          response,
          400,
          { __type: type, Message: "Secrets Manager can't find the specified secret." },
          type,
        );
        return;
      }
      reply(response, 200, {
        ARN: id,
        Name: id.split(':').at(-1),
        VersionId: randomUUID(),
        SecretString: value,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: Date.now() / 1000,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    reads,
    put: (secretId, value) => secrets.set(secretId, value),
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
