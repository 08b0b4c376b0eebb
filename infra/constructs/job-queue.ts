// The job queue between POST /summarize and the worker: one message per run of a summary,
// or per step of a collection (its driver, which the worker
// runs, sends its videos here too), delivered to the worker Lambda one at a time, at most
// `maxConcurrency` at once. A message the worker does not finish (a crash, a timeout, a partial
// batch failure) comes back after the visibility timeout; after MAX_RECEIVES deliveries it moves
// to the dead-letter queue, which the alarms watch and operators redrive from.
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAX_RECEIVES } from '../../lib/summaries/jobs/delivery';

export interface JobQueueProps {
  /** The worker's timeout: the visibility timeout is six times it. */
  workerTimeout: Duration;
}

// AWS's guidance for Lambda event sources: a visibility timeout of six times the function's
// timeout, so a message being worked on (or retried after a throttled invocation) never shows
// up again while a worker still holds it.
const VISIBILITY_PER_TIMEOUT = 6;

export class JobQueue extends Construct {
  readonly queue: Queue;
  /** Messages delivered MAX_RECEIVES times without success. */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: JobQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      // SQS's longest: two weeks to notice the alarm, find the cause and redrive. A message's
      // age counts from its first enqueue, so this must exceed the job queue's retention.
      retentionPeriod: Duration.days(14),
      // SSE-SQS: encrypted at rest with no key to pay for or to grant (the bodies name a record
      // and a request id, no user data).
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, 'Default', {
      visibilityTimeout: Duration.seconds(VISIBILITY_PER_TIMEOUT * props.workerTimeout.toSeconds()),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
  }

  /**
   * Makes `worker` the queue's consumer, invoked at most `maxConcurrency` (2-1,000, an SQS event
   * source's range) at once. Apart from the constructor, since the worker also sends to the
   * queue (a collection's videos): its JOB_QUEUE_URL needs the queue before the worker exists.
   */
  consumeWith(worker: IFunction, maxConcurrency: number): void {
    worker.addEventSource(
      new SqsEventSource(this.queue, {
        // Each run gets the worker's whole budget; a batch would share it.
        batchSize: 1,
        // The worker names the messages to deliver again instead of
        // failing the whole invocation.
        reportBatchItemFailures: true,
        // The poller never invokes more workers than this: a backlog waits in the queue
        // instead of being throttled, and Bedrock sees at most this many runs at once.
        maxConcurrency,
      }),
    );
  }
}
