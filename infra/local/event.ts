// What Lambda hands a function: the payload-format-2.0 event of an API Gateway HTTP API request,
// the event of an SQS event source mapping (the worker), and a context with the time left. Built
// by the local host for every request and queue message, and by the benchmarks and tests that
// call handlers directly.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, Context, SQSEvent } from 'aws-lambda';

/** API Gateway gives a Lambda integration at most 30 s. */
const INTEGRATION_TIMEOUT_MS = 30_000;

const TEXT_TYPES = /^(text\/|application\/(json|x-www-form-urlencoded|xml|[a-z.+-]*\+json))/i;

/** What an API Gateway event is built from: an incoming request, or a hand-made one (benchmarks). */
export type RequestLike = Pick<IncomingMessage, 'method' | 'url' | 'headers' | 'httpVersion'> & {
  socket?: { remoteAddress?: string | undefined };
};

/** The API Gateway HTTP API (payload 2.0) event for a request. */
export function apiGatewayEvent(
  request: RequestLike,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
  requestId: string,
): APIGatewayProxyEventV2 {
  // Split by hand: a WHATWG URL per request was a visible share of the local host's CPU.
  const target = request.url ?? '/';
  const queryAt = target.indexOf('?');
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  const rawQueryString = queryAt === -1 ? '' : target.slice(queryAt + 1);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  if (rawQueryString !== '') {
    for (const [name, value] of new URLSearchParams(rawQueryString)) {
      query[name] = name in query ? `${query[name]},${value}` : value;
    }
  }
  const isText = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    cookies: request.headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method ?? 'GET',
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket?.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

/**
 * A Lambda context whose remaining time is `timeoutMs`: by default API Gateway's 30 s integration
 * limit (a route's function), else the function's own timeout (the worker).
 */
export function lambdaContext(
  name: string,
  requestId: string,
  timeoutMs = INTEGRATION_TIMEOUT_MS,
): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    awsRequestId: requestId,
    functionName: `tubesum-${name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:tubesum-${name}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/tubesum-${name}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The event an SQS event source mapping delivers for one message (`receives`: its delivery count). */
export function sqsEvent(
  message: { id: string; body: string; receives: number; sentAt: number },
  queue = 'tubesum-jobs',
): SQSEvent {
  const now = Date.now();
  return {
    Records: [
      {
        messageId: message.id,
        receiptHandle: `local-${message.id}-${message.receives}`,
        body: message.body,
        attributes: {
          ApproximateReceiveCount: String(message.receives),
          SentTimestamp: String(message.sentAt),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(now),
        },
        messageAttributes: {},
        md5OfBody: createHash('md5').update(message.body).digest('hex'),
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
        awsRegion: 'local',
      },
    ],
  };
}
