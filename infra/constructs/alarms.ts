// CloudWatch alarms on the API's 5xx rate, on each function's crashes and throttles, on jobs
// left waiting (the job queue's oldest message) and on jobs given up (the dead-letter queue),
// each notifying one SNS topic when it fires and when it clears (subscribe an email with
// `-c alarmEmail=...`, or anything SNS delivers to). Every one treats missing data as fine,
// since an idle API emits no data points at all.
import { Duration, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { FunctionName } from '../../lib/routes/route';
import { functionId } from '../names';
import type { ApiFunction } from './api-function';

export interface ServiceAlarmsProps {
  api: HttpApi;
  functions: ReadonlyMap<FunctionName, ApiFunction>;
  /** The job queue, and the timeout of the worker that consumes it (the backlog's yardstick). */
  jobQueue?: { queue: IQueue; workerTimeout: Duration };
  /** Where the job queue puts the jobs the worker gave up on. */
  deadLetterQueue?: IQueue;
  /** Subscribed to the topic (SNS mails a confirmation link first). */
  email?: string;
}

/** Worker timeouts the job queue's oldest message may wait before the backlog alarm fires. */
export const BACKLOG_TIMEOUTS = 4;

/** The period every alarm looks at. */
const PERIOD = Duration.minutes(5);

/** Fires on any data point at or over `threshold` in one period; an idle API sends none. */
const atLeast = (threshold: number) => ({
  threshold,
  comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  evaluationPeriods: 1,
  treatMissingData: TreatMissingData.NOT_BREACHING,
});

/** Fires on a data point over `threshold` in one period. */
const over = (threshold: number) => ({
  ...atLeast(threshold),
  comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
});

export class ServiceAlarms extends Construct {
  /** Where every alarm reports, firing and clearing. */
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  private readonly notify: SnsAction;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', {
      displayName: 'tubesum alarms',
      enforceSSL: true,
    });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry alarm names and metric values, no user data. CloudWatch can publish to an encrypted topic only with a customer-managed KMS key (about $1 a month) whose policy admits it; the AWS-managed SNS key would silently drop every alarm.',
    });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    this.notify = new SnsAction(this.topic);
    this.apiAlarm(props.api);
    for (const [handler, fn] of props.functions) this.functionAlarms(handler, fn);
    if (props.jobQueue) this.backlogAlarm(props.jobQueue);
    if (props.deadLetterQueue) this.deadLetterAlarm(props.deadLetterQueue);
  }

  /** An alarm that notifies the topic when it fires and when it clears. */
  private alarm(alarmId: string, alarmProps: AlarmProps) {
    const created = new Alarm(this, alarmId, alarmProps);
    created.addAlarmAction(this.notify);
    created.addOkAction(this.notify);
    this.alarms.push(created);
  }

  /** The share of 5xx answers, once there is enough traffic for a rate to mean something. */
  private apiAlarm(api: HttpApi) {
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests >= 10, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
        requests: api.metricCount({ period: PERIOD, statistic: 'Sum' }),
      },
      period: PERIOD,
      label: '5xx rate (%)',
    });
    this.alarm('Api5xxRate', {
      alarmDescription: 'More than 5% of API requests answered 5xx in 5 minutes',
      metric: serverErrorRate,
      ...over(5),
    });
  }

  private functionAlarms(handler: FunctionName, fn: ApiFunction) {
    const name = functionId(handler);
    // A handled error is a 4xx/5xx response; an invocation error is a crash or a timeout.
    this.alarm(`${name}Errors`, {
      alarmDescription: `The ${handler} function crashed or timed out`,
      metric: fn.function.metricErrors({ period: PERIOD, statistic: 'Sum' }),
      ...atLeast(1),
    });
    // The account's concurrency (or summarize's reserved concurrency) is exhausted: a
    // throttled route fails its request, a throttled worker leaves its job waiting.
    this.alarm(`${name}Throttles`, {
      alarmDescription: `The ${handler} function was throttled`,
      metric: fn.function.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
      ...atLeast(1),
    });
  }

  /**
   * With every worker busy, a new message waits for the first run to end (at most one worker
   * timeout, 15 minutes, however many `workerConcurrency` runs there are), then runs for at
   * most another; a run that fails for a passing reason adds a backoff of 35 s and one more
   * run. So a healthy queue's oldest message (its age counts from its first send, through
   * its deliveries) is at most about three timeouts old. Four (an hour) means jobs are not
   * being picked up (the event source disabled, the worker throttled, or crashing: a crashed
   * run's message hides for the 90-minute visibility timeout) or are arriving faster than
   * the workers finish them (raise workerConcurrency). The maximum, since the age is a level.
   */
  private backlogAlarm(jobQueue: { queue: IQueue; workerTimeout: Duration }) {
    const threshold = BACKLOG_TIMEOUTS * jobQueue.workerTimeout.toSeconds();
    this.alarm('JobBacklog', {
      alarmDescription: `A summary job has waited in the job queue for over ${threshold / 60} minutes: no worker picks jobs up, or the workers cannot keep up (raise workerConcurrency)`,
      metric: jobQueue.queue.metricApproximateAgeOfOldestMessage({
        period: PERIOD,
        statistic: 'Maximum',
      }),
      ...over(threshold),
    });
  }

  /**
   * Every message there is a summary no worker finished in MAX_RECEIVES deliveries: one is
   * enough to look (the worker's logs say why) and redrive once fixed. The maximum, since a
   * queue's count is a level, not a sum. SQS stops sending data for an empty queue left
   * alone for hours; a queue holding messages keeps sending it.
   */
  private deadLetterAlarm(deadLetterQueue: IQueue) {
    this.alarm('DeadLetters', {
      alarmDescription:
        'A summary job reached the dead-letter queue: no worker finished it (redrive after fixing the cause)',
      metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: PERIOD,
        statistic: 'Maximum',
      }),
      ...atLeast(1),
    });
  }
}
