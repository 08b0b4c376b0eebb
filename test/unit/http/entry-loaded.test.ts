// A function's code loaded on its first event (loadedOnFirstEvent): nothing is imported before
// that event, the module is imported once, and what cannot be loaded or built is tried again on
// the next event, answered as the entry answers it (a setting it cannot start with: 503).
import { describe, expect, it, vi } from 'vitest';
import { apiGatewayEvent, lambdaContext } from '../../../infra/local/event';
import { ConfigError } from '../../../lib/errors';
import { invocation, type LambdaHandler, loadedOnFirstEvent } from '../../../lib/http/entry';
import { logger } from '../../../lib/logger';

const event = apiGatewayEvent(
  { method: 'GET', url: '/thing', headers: {}, httpVersion: '1.1' },
  Buffer.alloc(0),
  'GET /thing',
  undefined,
  'req-loaded',
);
const context = lambdaContext('loaded', 'req-loaded');
const answer: LambdaHandler = async () => ({ statusCode: 200, headers: {}, body: 'ok' });

describe('loadedOnFirstEvent', () => {
  it('imports nothing until the first event, then once for every later one', async () => {
    const load = vi.fn(async () => ({ create: () => answer }));
    const handler = invocation(loadedOnFirstEvent(load, (root) => root.create()));

    expect(load).not.toHaveBeenCalled();
    const replies = await Promise.all([handler(event, context), handler(event, context)]);
    await handler(event, context);

    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers a build that throws a ConfigError with 503, and builds again on the next event', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    let valid = false;
    const load = vi.fn(async () => ({ create: () => answer }));
    const build = vi.fn((root: { create: () => LambdaHandler }) => {
      if (!valid) throw new ConfigError('JOB_QUEUE_URL is not set');
      return root.create();
    });
    const handler = invocation(loadedOnFirstEvent(load, build));

    expect((await handler(event, context)).statusCode).toBe(503);
    valid = true;
    expect((await handler(event, context)).statusCode).toBe(200);
    expect(build).toHaveBeenCalledTimes(2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('imports again on the next event when the import failed (a crash: 500)', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const load = vi
      .fn<() => Promise<{ create: () => LambdaHandler }>>()
      .mockRejectedValueOnce(new Error('chunk missing'))
      .mockResolvedValue({ create: () => answer });
    const handler = invocation(loadedOnFirstEvent(load, (root) => root.create()));

    expect((await handler(event, context)).statusCode).toBe(500);
    expect((await handler(event, context)).statusCode).toBe(200);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
