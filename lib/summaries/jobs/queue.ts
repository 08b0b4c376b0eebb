// How a summary's run reaches a worker: a message naming its record. Deployed, the queue is SQS
// (a worker Lambda consumes it); the local host runs the same worker in-process behind this same
// interface.
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../../aws/sqs';
import type { Config } from '../../config';
import { ConfigError } from '../../errors';
import type { QueueMessage } from './delivery';
import { QueueUnavailableError } from './errors';

export interface JobQueue {
  /**
   * Hands a run (or a collection's advance) to the workers.
   * @throws QueueUnavailableError when the queue refuses it.
   */
  send(message: QueueMessage): Promise<void>;
  /**
   * Resolves when a run of `key` ends in this process, or never: waiters poll the record
   * anyway, this only wakes them sooner (the local host's in-process queue has it, SQS not).
   */
  settled?(key: string, signal: AbortSignal): Promise<void>;
}

/** The queue at JOB_QUEUE_URL. */
export function createSqsQueue(client: Pick<SQSClient, 'send'>, queueUrl: string): JobQueue {
  return {
    async send(message) {
      try {
        await client.send(
          new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }),
        );
      } catch (error) {
        throw new QueueUnavailableError(error);
      }
    },
  };
}

/**
 * The deployed queue: JOB_QUEUE_URL, set by the stack (for the functions that queue jobs).
 * @throws ConfigError when JOB_QUEUE_URL is not set.
 */
export function sqsQueueFrom(config: Config): JobQueue {
  if (config.JOB_QUEUE_URL === undefined) {
    throw new ConfigError('invalid configuration: JOB_QUEUE_URL is not set (the queue of jobs)');
  }
  return createSqsQueue(createSqsClient(config), config.JOB_QUEUE_URL);
}
