// The SQS client POST /summarize sends jobs with, created once per instance, with our own
// deadline (the SDK has none by default).
import { SQSClient } from '@aws-sdk/client-sqs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config';

/** A client for JOB_QUEUE_URL's region and, in tests, AWS_ENDPOINT_URL_SQS. */
export function createSqsClient(
  config: Pick<Config, 'AWS_REGION' | 'AWS_ENDPOINT_URL_SQS'>,
): SQSClient {
  return new SQSClient({
    region: config.AWS_REGION,
    ...(config.AWS_ENDPOINT_URL_SQS ? { endpoint: config.AWS_ENDPOINT_URL_SQS } : {}),
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: 1_000,
      requestTimeout: 3_000,
      throwOnRequestTimeout: true,
    }),
  });
}
