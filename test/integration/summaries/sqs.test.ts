// POST /summarize as deployed: the function sends a new run to the SQS queue at JOB_QUEUE_URL
// (the real SDK client, against a stub speaking SendMessage's wire protocol) and answers 202
// with the job; a queue that refuses answers 503 and leaves no job waiting for ever.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { create } from '../../../functions/summaries/summarize';
import { apiGatewayEvent, lambdaContext } from '../../../infra/local/event';
import { withSettings } from '../../../lib/config';
import { invocation } from '../../../lib/http/entry';
import { startTestHost, type TestHost } from '../../support/host';
import { type SqsStub, startSqsStub } from '../../support/sqs-stub';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/tubesum-jobs';
let host: TestHost;
let sqs: SqsStub;
let token: string;
let deployed: ReturnType<typeof create>;

beforeAll(async () => {
  host = await startTestHost();
  ({ token } = await host.registerAndLogin());
  sqs = await startSqsStub();
  // The function as the stack configures it: no queue handed in, the SQS one from its settings;
  // entered as every function is (the invocation answers what it refuses).
  deployed = invocation(
    create(
      withSettings(host.config, { JOB_QUEUE_URL: QUEUE_URL, AWS_ENDPOINT_URL_SQS: sqs.endpoint }),
    ),
  );
});
afterAll(async () => {
  await sqs?.close();
  await host?.close();
});

function summarize(body: unknown, requestId: string) {
  const payload = Buffer.from(JSON.stringify(body));
  const event = apiGatewayEvent(
    {
      method: 'POST',
      url: '/summarize',
      headers: {
        'content-type': 'application/json',
        'content-length': String(payload.length),
        authorization: `Bearer ${token}`,
        prefer: 'respond-async',
      },
      httpVersion: '1.1',
    },
    payload,
    'POST /summarize',
    undefined,
    requestId,
  );
  return deployed(event, lambdaContext('summarize', requestId));
}

it('sends a new run to the queue and answers 202 with its job', async () => {
  const reply = await summarize({ video_url: 'py5byOOHZM8', summary_length: 111 }, 'req-sqs-1');
  const job = JSON.parse(reply.body ?? '{}');
  const polled = await host.request('GET', `/summaries/${job.id}`, { token });

  expect(reply.statusCode).toBe(202);
  expect(sqs.sent).toHaveLength(1);
  expect(sqs.sent[0]?.queueUrl).toBe(QUEUE_URL);
  expect(JSON.parse(sqs.sent[0]?.body ?? '')).toEqual({
    key: expect.stringMatching(/^SUMMARY#.+#py5byOOHZM8#\*#extractive#111#\*$/),
    request_id: 'req-sqs-1',
  });
  // Nothing consumes this queue here: the job waits for a worker.
  expect(polled.body).toMatchObject({ id: job.id, status: 'queued' });
});

it('answers 503 queue-unavailable when SQS refuses, and fails the job instead of leaving it queued', async () => {
  sqs.failWith({ status: 500, type: 'InternalError' });
  try {
    const reply = await summarize({ video_url: 'py5byOOHZM8', summary_length: 112 }, 'req-sqs-2');
    const history = await host.request('GET', '/summaries', { token });
    const failed = history.body.items.find(
      (job: { request: { summary_length: number } }) => job.request.summary_length === 112,
    );

    expect(reply.statusCode).toBe(503);
    expect(JSON.parse(reply.body ?? '{}').type).toBe('urn:tubesum:problem:queue-unavailable');
    expect(reply.headers['Retry-After']).toBe('5');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { type: 'urn:tubesum:problem:queue-unavailable', status: 503 },
    });
  } finally {
    sqs.failWith(undefined);
  }
});
