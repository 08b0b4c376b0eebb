// A local SQS that speaks the wire protocol of the two calls the service makes (AWS JSON 1.0
// over HTTP: POST /, an `X-Amz-Target: AmazonSQS.<Action>` header, a JSON body):
// - SendMessage `{"QueueUrl", "MessageBody"}`, answered with `{"MessageId", "MD5OfMessageBody"}`,
//   whose MD5 the SDK checks (POST /summarize);
// - ChangeMessageVisibility `{"QueueUrl", "ReceiptHandle", "VisibilityTimeout"}`, answered with
//   an empty object (the worker handing a failed message back).
// The real SDK client talks to it through AWS_ENDPOINT_URL_SQS. Every call is recorded;
// `failWith` makes it answer an error as SQS does (status, `x-amzn-query-error` and `__type`).
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  queueUrl: string;
  body: string;
}

export interface VisibilityChange {
  queueUrl: string;
  receiptHandle: string;
  visibilityTimeout: number;
}

export interface SqsStub {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** Every message sent, in order. */
  readonly sent: readonly SentMessage[];
  /** Every visibility change SQS accepted, in order. */
  readonly visibilityChanges: readonly VisibilityChange[];
  /** The action of every request, answered or failed (`ChangeMessageVisibility`, ...). */
  readonly calls: readonly string[];
  /** From now on, answer every call with this error (undefined: succeed again). */
  failWith(error: { status: number; type: string } | undefined): void;
  close(): Promise<void>;
}

function reply(response: ServerResponse, status: number, body: unknown, errorType?: string) {
  response.writeHead(status, {
    'Content-Type': 'application/x-amz-json-1.0',
    'x-amzn-RequestId': randomUUID(),
    ...(errorType ? { 'x-amzn-query-error': `AWS.SimpleQueueService.${errorType};Sender` } : {}),
  });
  response.end(JSON.stringify(body));
}

const TARGET_PREFIX = 'AmazonSQS.';

export async function startSqsStub(): Promise<SqsStub> {
  const sent: SentMessage[] = [];
  const visibilityChanges: VisibilityChange[] = [];
  const calls: string[] = [];
  let failure: { status: number; type: string } | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = String(request.headers['x-amz-target'] ?? '');
      const action = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
      calls.push(action);
      if (failure) {
        reply(
          response,
          failure.status,
          { __type: `com.amazonaws.sqs#${failure.type}` },
          failure.type,
        );
        return;
      }
      if (request.method !== 'POST') {
        reply(response, 400, { __type: 'com.amazonaws.sqs#InvalidAction' }, 'InvalidAction');
        return;
      }
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<
        string,
        unknown
      >;
      if (action === 'SendMessage') {
        const body = String(input.MessageBody);
        sent.push({ queueUrl: String(input.QueueUrl), body });
        reply(response, 200, {
          MessageId: randomUUID(),
          MD5OfMessageBody: createHash('md5').update(body).digest('hex'),
        });
        return;
      }
      if (action === 'ChangeMessageVisibility') {
        visibilityChanges.push({
          queueUrl: String(input.QueueUrl),
          receiptHandle: String(input.ReceiptHandle),
          visibilityTimeout: Number(input.VisibilityTimeout),
        });
        reply(response, 200, {});
        return;
      }
      reply(response, 400, { __type: 'com.amazonaws.sqs#InvalidAction' }, 'InvalidAction');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    visibilityChanges,
    calls,
    failWith(error) {
      failure = error;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
