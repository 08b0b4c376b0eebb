// The SQS client, created once per instance, with our own deadline (the SDK has none by
// default): POST /summarize sends jobs with it, the worker hands failed messages back with it.
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
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

/**
 * The URL of the queue an ARN names (arn:aws:sqs:REGION:ACCOUNT:NAME ->
 * https://sqs.REGION.amazonaws.com/ACCOUNT/NAME), as SQS and CloudFormation spell it: the worker
 * learns its queue from the messages' eventSourceARN, so it needs no setting for it. The China
 * regions' domain ends in .com.cn; the commercial and GovCloud ones' in .com.
 * @throws Error when `arn` is not an SQS queue's ARN.
 */
export function queueUrlOf(arn: string): string {
  const match = /^arn:(aws[a-z-]*):sqs:([a-z0-9-]+):(\d{12}):([\w-]{1,80}(?:\.fifo)?)$/.exec(arn);
  if (!match) throw new Error(`not the ARN of an SQS queue: ${arn}`);
  const [, partition, region, account, name] = match;
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}

/**
 * Makes a received message visible again `seconds` from now (ChangeMessageVisibility): SQS
 * delivers it again then, instead of after the queue's whole visibility timeout.
 * @throws the SDK's error when SQS refuses or cannot be reached, Error for a malformed ARN.
 */
export async function changeVisibility(
  client: Pick<SQSClient, 'send'>,
  message: { queueArn: string; receiptHandle: string },
  seconds: number,
): Promise<void> {
  await client.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrlOf(message.queueArn),
      ReceiptHandle: message.receiptHandle,
      VisibilityTimeout: seconds,
    }),
  );
}
