// The job pipeline as deployed: POST /summarize sends to an SQS queue, a worker Lambda consumes
// it, a dead-letter queue with an alarm catches what no worker finishes, and the summaries
// routes read the jobs through the table's index. Proven on the synthesized template.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKLOG_TIMEOUTS } from '../../infra/constructs/alarms';
import { JOBS_INDEX } from '../../lib/aws/table';
import { WORKER_MARGIN_MS } from '../../lib/config/summaries';
import { MAX_RECEIVES, redeliverySeconds } from '../../lib/summaries/jobs/delivery';
import {
  actionsOf,
  allFunctions,
  allow,
  environment,
  fnOf,
  functionResource,
  grants,
  logicalId,
  resourcesOf,
  type Synth,
  sortGrants,
  statements,
  synth,
} from '../support/synth';

// CDK synth is CPU-bound: seconds on an idle machine, a minute or more on a loaded one (the
// 60 s hook time-out was missed once); these bounds only end a synth that hangs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let base: Synth;
beforeAll(() => {
  base = synth();
});

const queueId = () => logicalId(base, base.stack.jobQueue);
const deadLettersId = () => logicalId(base, base.stack.deadLetterQueue);
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
/** The alarms on an SQS metric, and what an alarm that notifies the topic says of it. */
const sqsAlarms = (metric?: string) =>
  resourcesOf(base, 'AWS::CloudWatch::Alarm').filter(
    (a) => a.Properties.Namespace === 'AWS/SQS' && (!metric || a.Properties.MetricName === metric),
  );
const notifiesTopic = () => {
  const topic = { Ref: logicalId(base, base.stack.alarmTopic) };
  return { TreatMissingData: 'notBreaching', AlarmActions: [topic], OKActions: [topic] };
};

describe('the worker', () => {
  it('runs on nodejs22.x and arm64 for 15 minutes with 1 GB', () => {
    expect(functionResource(base, 'worker').Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: 900,
      MemorySize: 1024,
      Handler: 'index.handler',
    });
  });

  it('ends each job’s budget WORKER_MARGIN_MS before the Lambda ends', () => {
    const { Timeout } = functionResource(base, 'worker').Properties;
    const deadline = Number(environment(base, 'worker').JOB_DEADLINE_MS);

    expect(deadline).toBe(Timeout * 1000 - WORKER_MARGIN_MS);
    expect(deadline).toBeGreaterThan(0);
  });

  it('is fed one message at a time, reports partial batch failures and runs at most 4 at once', () => {
    const mappings = resourcesOf(base, 'AWS::Lambda::EventSourceMapping');

    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toEqual({
      EventSourceArn: arnOf(queueId()),
      FunctionName: { Ref: logicalId(base, base.stack.worker.function) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 4 },
    });
  });

  it('takes its concurrency from -c workerConcurrency, within SQS’s 2 to 1,000', () => {
    synth({ workerConcurrency: '25' }).template.hasResourceProperties(
      'AWS::Lambda::EventSourceMapping',
      { ScalingConfig: { MaximumConcurrency: 25 } },
    );
    expect(() => synth({ workerConcurrency: 1 })).toThrow(/context workerConcurrency .*2 to 1000/);
    expect(() => synth({ workerConcurrency: 1001 })).toThrow(/workerConcurrency/);
    expect(() => synth({ workerConcurrency: 'many' })).toThrow(/workerConcurrency/);
  });

  it('reads the credentials, invokes Bedrock, consumes the queue and sends to it (a collection’s videos)', () => {
    const actions = actionsOf(statements(base, 'worker'));

    expect(actions).toContain('bedrock:InvokeModel');
    expect(actions).toContain('secretsmanager:GetSecretValue');
    // Lambda's poller receives, deletes and reads the queue's attributes; the worker itself hands
    // failed messages back early (ChangeMessageVisibility). GetQueueUrl comes with CDK's
    // grantConsumeMessages and is unused: the worker reads its queue from the records' ARN.
    // SendMessage: a collection's driver starts its videos' jobs and wakes itself
    // (lib/collections/driver.ts), at JOB_QUEUE_URL.
    expect(grants(base, 'worker', 'sqs:')).toEqual(
      allow(
        arnOf(queueId()),
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
      ),
    );
    expect(environment(base, 'worker').JOB_QUEUE_URL).toEqual({ Ref: queueId() });
  });

  it('reads and writes single items of the table, nothing more', () => {
    const dynamo = actionsOf(statements(base, 'worker')).filter((a) => a.startsWith('dynamodb:'));

    expect(dynamo.sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });
});

describe('the job queue', () => {
  it('moves a message to the dead-letter queue after MAX_RECEIVES deliveries', () => {
    const queue = base.resources[queueId()];

    expect(MAX_RECEIVES).toBe(5);
    expect(queue?.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: arnOf(deadLettersId()),
      maxReceiveCount: MAX_RECEIVES,
    });
  });

  it('hides a message at least six worker timeouts long, so a running job is never delivered twice', () => {
    const visibility = base.resources[queueId()]?.Properties.VisibilityTimeout;
    const timeout = functionResource(base, 'worker').Properties.Timeout;

    expect(visibility).toBeGreaterThanOrEqual(6 * timeout);
    // SQS's maximum is 12 hours.
    expect(visibility).toBeLessThanOrEqual(12 * 3600);
  });

  it('hands a failed message back well within the visibility timeout, whatever the lease', () => {
    const visibility = base.resources[queueId()]?.Properties.VisibilityTimeout;
    // JOB_LEASE_SECONDS' largest value; the backoff never waits less than the lease.
    const longest = redeliverySeconds(MAX_RECEIVES, 900);

    expect(longest).toBeLessThanOrEqual(visibility / 5);
  });

  it('keeps dead letters for 14 days, and encrypts both queues with SQS-managed keys', () => {
    expect(base.resources[deadLettersId()]?.Properties.MessageRetentionPeriod).toBe(14 * 86_400);
    for (const id of [queueId(), deadLettersId()]) {
      expect(base.resources[id]?.Properties.SqsManagedSseEnabled, id).toBe(true);
    }
  });

  it('refuses requests without TLS on both queues', () => {
    for (const id of [queueId(), deadLettersId()]) {
      const policies = resourcesOf(base, 'AWS::SQS::QueuePolicy').filter(
        (p) => JSON.stringify(p.Properties.Queues) === JSON.stringify([{ Ref: id }]),
      );
      expect(policies.flatMap((p) => p.Properties.PolicyDocument.Statement)).toContainEqual({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'sqs:*',
        Resource: arnOf(id),
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      });
    }
  });

  it('alarms the topic, firing and clearing, as soon as one message is dead', () => {
    const alarms = sqsAlarms('ApproximateNumberOfMessagesVisible');

    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Properties).toMatchObject({
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLettersId(), 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      ...notifiesTopic(),
    });
  });

  it('alarms the topic, firing and clearing, when a job has waited in the queue for over an hour', () => {
    const timeout = functionResource(base, 'worker').Properties.Timeout;
    const alarms = sqsAlarms('ApproximateAgeOfOldestMessage');

    expect(BACKLOG_TIMEOUTS * timeout).toBe(3_600);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Properties).toMatchObject({
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId(), 'QueueName'] } }],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 3_600,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      ...notifiesTopic(),
    });
  });

  it('alarms on SQS only for these two: jobs waiting, and jobs given up', () => {
    expect(
      sqsAlarms()
        .map((a) => a.Properties.MetricName)
        .sort(),
    ).toEqual(['ApproximateAgeOfOldestMessage', 'ApproximateNumberOfMessagesVisible']);
  });

  it('outputs the queue’s URL and the dead-letter queue’s URL and ARN (for redrives)', () => {
    const outputs = base.template.toJSON().Outputs;

    expect(outputs.JobQueueUrl.Value).toEqual({ Ref: queueId() });
    expect(outputs.DeadLetterQueueUrl.Value).toEqual({ Ref: deadLettersId() });
    expect(outputs.DeadLetterQueueArn.Value).toEqual(arnOf(deadLettersId()));
  });
});

describe('POST /summarize', () => {
  it('may send to the job queue and nothing else of SQS', () => {
    expect(grants(base, 'summarize', 'sqs:')).toEqual(allow(arnOf(queueId()), 'sqs:SendMessage'));
    expect(environment(base, 'summarize').JOB_QUEUE_URL).toEqual({ Ref: queueId() });
  });

  it('is, with /mcp (summarize_video), /collections and the worker (a collection’s videos), the only function that may send jobs, and nothing may touch the dead-letter queue', () => {
    const senders = ['summarize', 'mcp', 'collections', 'worker'];
    for (const handler of allFunctions) {
      const sends = actionsOf(statements(base, handler)).includes('sqs:SendMessage');
      expect({ handler, sends }).toEqual({ handler, sends: senders.includes(handler) });
      expect(JSON.stringify(statements(base, handler)), handler).not.toContain(deadLettersId());
    }
  });

  it('neither invokes Bedrock nor reads the operator’s credentials', () => {
    const credentialsId = logicalId(base, base.stack.credentials.secret);
    const summarize = statements(base, 'summarize');

    expect(actionsOf(summarize).filter((a) => a.startsWith('bedrock:'))).toEqual([]);
    expect(JSON.stringify(summarize)).not.toContain(credentialsId);
    expect(environment(base, 'summarize')).not.toHaveProperty('CREDENTIALS_SECRET_ARN');
  });
});

describe('the summaries routes', () => {
  it('send GET /summaries, GET /summaries/{id} and DELETE /summaries/{id} to the summaries function', () => {
    const summaries = { 'Fn::GetAtt': [logicalId(base, fnOf(base, 'summaries').function), 'Arn'] };
    const routes = resourcesOf(base, 'AWS::ApiGatewayV2::Route');
    for (const key of ['GET /summaries', 'GET /summaries/{id}', 'DELETE /summaries/{id}']) {
      const route = routes.find((r) => r.Properties.RouteKey === key);
      const integration = base.resources[route?.Properties.Target['Fn::Join'][1][1].Ref];
      expect(integration?.Properties.IntegrationUri, key).toEqual(summaries);
    }
  });

  it('get, update and delete job items, and query only the jobs index', () => {
    const table = logicalId(base, base.stack.table);
    expect(grants(base, 'summaries', 'dynamodb:')).toEqual(
      sortGrants([
        ...allow(arnOf(table), 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'),
        ...allow(
          { 'Fn::Join': ['', [arnOf(table), `/index/${JOBS_INDEX.name}`]] },
          'dynamodb:Query',
        ),
      ]),
    );
  });
});
