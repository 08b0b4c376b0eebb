// How the job queue's messages are delivered: what one says (the record to make), how many
// deliveries it gets, and how long a failed one waits for the next. Shared by the deployed
// worker, the stack and the local host's queue, so the two queues agree. Free of the AWS SDK,
// unlike queue.ts (the sender): the worker loads this on every cold start, and the SQS client
// only on a failure.
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import * as z from '../../schema';
import { once } from '../../util/once';

/**
 * Deliveries of one message before it goes to the dead-letter queue (the stack's
 * maxReceiveCount, and the local queue's): more than the crashes a run survives (MAX_CRASHES in
 * the worker), so the worker itself sees a run that crashes too often and fails it in words.
 */
export const MAX_RECEIVES = 5;

/** The body of a queue message: which record to make, and the request that asked for it. */
export const workMessageSchema = z.object({
  key: z.string().check(z.minLength(1), z.maxLength(1_024)),
  request_id: z.string().check(z.maxLength(200)),
});
export type WorkMessage = z.output<typeof workMessageSchema>;

/**
 * The body of a message that wakes a collection's driver: when it
 * is made, when one of its videos' jobs is settled, and when a poll finds one settled.
 */
export const collectionMessageSchema = z.object({
  collection: z.string().check(z.minLength(1), z.maxLength(64)),
  request_id: z.string().check(z.maxLength(200)),
});
export type CollectionMessage = z.output<typeof collectionMessageSchema>;

/** Every message of the job queue. */
export const queueMessageSchema = z.union([workMessageSchema, collectionMessageSchema]);
export type QueueMessage = WorkMessage | CollectionMessage;

/** Whether a message wakes a collection (else it makes a summary). */
export const wakesCollection = (message: QueueMessage): message is CollectionMessage =>
  'collection' in message;

// A message the worker hands back for a passing reason (the table unreachable, an unexpected
// error) comes back after a backoff that doubles with each delivery: 30 s (35 s with the default
// 30 s lease, below), 1, 2, 4 and 8 minutes. A table that blinked is tried again within a
// minute; one that stays down gets ~16 minutes over MAX_RECEIVES deliveries before the message
// reaches the dead-letter queue and its alarm. SQS alone would wait the queue's whole visibility
// timeout (90 minutes) each time, while the job's user polls a job that says it is running.
/** The wait before the second delivery of a failed message. */
export const REDELIVERY_BASE_SECONDS = 30;
/**
 * The longest backoff: the worker's 15-minute timeout, a sixth of the queue's visibility timeout
 * (which stays long for the worker that crashes without a word).
 */
export const REDELIVERY_MAX_SECONDS = 900;
/** Kept beyond a lease's length: the clocks of two workers, and a poller that is early. */
const LEASE_SLACK_SECONDS = 5;

/**
 * How long a message that failed its `receives`-th delivery waits for the next one, in seconds:
 * REDELIVERY_BASE_SECONDS doubled for each earlier delivery, at most REDELIVERY_MAX_SECONDS, and
 * never less than the lease (JOB_LEASE_SECONDS) and a little: a run that stopped for a passing
 * reason keeps its lease until it lapses, and a delivery before that would find the run 'busy'
 * and drop the message. The deployed worker (ChangeMessageVisibility) and the local queue both
 * wait this long.
 */
export function redeliverySeconds(receives: number, leaseSeconds: number): number {
  const earlier = Number.isFinite(receives) ? Math.max(0, Math.floor(receives) - 1) : 0;
  const backoff = Math.min(REDELIVERY_MAX_SECONDS, REDELIVERY_BASE_SECONDS * 2 ** earlier);
  return Math.max(backoff, leaseSeconds + LEASE_SLACK_SECONDS);
}

/** A message the worker could not finish, to be delivered again later. */
export interface FailedMessage {
  messageId: string;
  /** The ARN of the queue it came from (an SQS record's eventSourceARN). */
  queueArn: string;
  /** This delivery's receipt, which SQS needs to change the message's visibility. */
  receiptHandle: string;
  /** Deliveries so far, this one included (ApproximateReceiveCount). */
  receives: number;
}

/**
 * Makes a failed message visible again `seconds` from now.
 * @throws whatever the queue answers (redeliverLater logs it).
 */
export type Redeliver = (message: FailedMessage, seconds: number) => Promise<void>;

/**
 * SQS's ChangeMessageVisibility on the queue each message came from. The SQS client is loaded on
 * the first failure: a worker that never fails never loads it (a failed load is tried again).
 */
export function sqsRedeliver(config: Config): Redeliver {
  const sqs = once(async () => {
    const module = await import('../../aws/sqs');
    return { changeVisibility: module.changeVisibility, client: module.createSqsClient(config) };
  });
  return async (message, seconds) => {
    const { changeVisibility, client } = await sqs();
    await changeVisibility(client, message, seconds);
  };
}

/**
 * Asks for each failed message to be delivered again after redeliverySeconds(). Best-effort: a
 * message whose visibility cannot be changed is logged, and SQS delivers it after the queue's
 * visibility timeout instead. Never throws.
 */
export async function redeliverLater(
  messages: readonly FailedMessage[],
  redeliver: Redeliver,
  leaseSeconds: number,
  logger: Logger,
): Promise<void> {
  await Promise.all(
    messages.map(async (message) => {
      const seconds = redeliverySeconds(message.receives, leaseSeconds);
      const fields = { message_id: message.messageId, receives: message.receives };
      try {
        await redeliver(message, seconds);
        logger.info('queue message handed back', { ...fields, redelivery_seconds: seconds });
      } catch (error) {
        logger.warn(
          'could not bring a failed queue message back early: it returns after the visibility timeout',
          { ...fields, error },
        );
      }
    }),
  );
}
