// The worker finds its queue's URL in the ARN every SQS record carries (eventSourceARN), so it
// needs no setting to hand a message back; the URL must be the one SQS itself gives the queue.
import { describe, expect, it } from 'vitest';
import { queueUrlOf } from '../../../lib/aws/sqs';

describe('queueUrlOf', () => {
  it.each([
    [
      'arn:aws:sqs:us-east-1:123456789012:Tubesum-JobsDefault1A2B3C4D-abc_DEF',
      'https://sqs.us-east-1.amazonaws.com/123456789012/Tubesum-JobsDefault1A2B3C4D-abc_DEF',
    ],
    [
      'arn:aws:sqs:eu-central-1:123456789012:jobs.fifo',
      'https://sqs.eu-central-1.amazonaws.com/123456789012/jobs.fifo',
    ],
    [
      'arn:aws-us-gov:sqs:us-gov-west-1:123456789012:jobs',
      'https://sqs.us-gov-west-1.amazonaws.com/123456789012/jobs',
    ],
    [
      'arn:aws-cn:sqs:cn-north-1:123456789012:jobs',
      'https://sqs.cn-north-1.amazonaws.com.cn/123456789012/jobs',
    ],
  ])('makes %s %s', (arn, url) => {
    expect(queueUrlOf(arn)).toBe(url);
  });

  it.each([
    'arn:aws:sns:us-east-1:123456789012:topic',
    'arn:aws:sqs:us-east-1:1234:jobs',
    'arn:aws:sqs:us-east-1:123456789012:jobs/../other',
    'https://sqs.us-east-1.amazonaws.com/123456789012/jobs',
    '',
  ])('refuses %j, which names no queue', (arn) => {
    expect(() => queueUrlOf(arn)).toThrow(/not the ARN of an SQS queue/);
  });
});
