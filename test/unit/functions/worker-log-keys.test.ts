// The worker's SQS entry gives each message log lines of its own: a message it drops is not
// logged under the request id of the message before it (as the HTTP entry resets its keys per
// request, lib/http/entry.ts). The logger is loaded here at INFO, so that its lines can be read.
import { afterEach, expect, it, vi } from 'vitest';
import { freePort } from '../../../infra/local/dynamodb';
import { lambdaContext, sqsEvent } from '../../../infra/local/event';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

it('logs a dropped message without the request id of the message before it', async () => {
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
  // Imported anew after the level is set: the logger reads it once, at import.
  vi.resetModules();
  const [{ create }, { loadConfig }] = await Promise.all([
    import('../../../functions/summaries/worker'),
    import('../../../lib/config'),
  ]);
  const config = loadConfig({
    AWS_REGION: 'us-east-1',
    TABLE_NAME: 'worker-log-keys',
    // Nobody listens there: the first message's run fails at once, and is redelivered.
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${await freePort()}`,
    DYNAMODB_TIMEOUT_MS: '500',
  });
  const worker = create(config, { redeliver: async () => undefined });
  const lines: Record<string, unknown>[] = [];
  const capture = (chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) {
      if (line.startsWith('{')) lines.push(JSON.parse(line));
    }
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const job = JSON.stringify({ key: 'summary-key', request_id: 'first-request' });
  const valid = sqsEvent({ id: 'message-1', body: job, receives: 1, sentAt: Date.now() });
  const dropped = sqsEvent({ id: 'message-2', body: 'not json', receives: 1, sentAt: Date.now() });

  await worker(valid, lambdaContext('worker', 'invocation-1', 60_000));
  await worker(dropped, lambdaContext('worker', 'invocation-2', 60_000));

  const first = lines.filter((line) => line.message_id === 'message-1');
  const drop = lines.find((line) => line.message === 'queue message dropped: not a summary job');
  expect(first.length).toBeGreaterThan(0);
  expect(first.every((line) => line.request_id === 'first-request')).toBe(true);
  expect(drop).toBeDefined();
  expect(drop?.request_id).toBeUndefined();
  expect(drop?.message_id).toBe('message-2');
}, 30_000);
