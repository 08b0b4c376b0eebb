// A local SQS that speaks SendMessage's wire protocol (AWS JSON 1.0 over HTTP: POST /,
// `X-Amz-Target: AmazonSQS.SendMessage`, a JSON body `{"QueueUrl", "MessageBody"}`, answered with
// `{"MessageId", "MD5OfMessageBody"}`, whose MD5 the SDK checks). The real SDK client talks to it
// through AWS_ENDPOINT_URL_SQS. Every message is recorded; `failWith` makes it answer an error
// as SQS does (status, `x-amzn-query-error` and `__type`).
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  queueUrl: string;
  body: string;
}

export interface SqsStub {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** Every message sent, in order. */
  readonly sent: readonly SentMessage[];
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

export async function startSqsStub(): Promise<SqsStub> {
  const sent: SentMessage[] = [];
  let failure: { status: number; type: string } | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (failure) {
        reply(
          response,
          failure.status,
          { __type: `com.amazonaws.sqs#${failure.type}` },
          failure.type,
        );
        return;
      }
      if (
        request.method !== 'POST' ||
        request.headers['x-amz-target'] !== 'AmazonSQS.SendMessage'
      ) {
        reply(response, 400, { __type: 'com.amazonaws.sqs#InvalidAction' }, 'InvalidAction');
        return;
      }
      const { QueueUrl, MessageBody } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        QueueUrl: string;
        MessageBody: string;
      };
      sent.push({ queueUrl: QueueUrl, body: MessageBody });
      reply(response, 200, {
        MessageId: randomUUID(),
        MD5OfMessageBody: createHash('md5').update(MessageBody).digest('hex'),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    failWith(error) {
      failure = error;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
