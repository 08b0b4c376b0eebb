// API Gateway's `$default` route (deployed): requests no route takes get the same 404/405
// problem as from the local host, not API Gateway's bare {"message":"Not Found"}.
import { describe, expect, it } from 'vitest';
import { create } from '../../../functions/site';
import { apiGatewayEvent, lambdaContext } from '../../../infra/local/event';
import { loadConfig } from '../../../lib/config';
import { invocation } from '../../../lib/http/entry';

// As every function's entry serves it: the invocation answers what the function refuses.
const handler = invocation(create(loadConfig({})));

const call = (method: string, path: string) => {
  const event = apiGatewayEvent(
    { method, url: path, headers: {}, httpVersion: '1.1' },
    Buffer.alloc(0),
    '$default',
    undefined,
    'req-1',
  );
  return handler(event, lambdaContext('site', 'req-1'));
};

describe('the $default route', () => {
  it('answers an unknown path with a 404 problem', async () => {
    const reply = await call('GET', '/admin/users');

    expect(reply.statusCode).toBe(404);
    expect(reply.headers['Content-Type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(reply.body ?? '')).toMatchObject({
      type: 'urn:tubesum:problem:not-found',
      request_id: 'req-1',
    });
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const reply = await call('GET', '/register');

    expect(reply.statusCode).toBe(405);
    expect(reply.headers.Allow).toBe('POST');
  });
});
