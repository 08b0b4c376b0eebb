// The checks before a body is parsed, at a function's handler as Lambda calls it: API Gateway
// need not pass Content-Length on, so the body limit measures the body itself.
import { describe, expect, it } from 'vitest';
import { create } from '../../../../functions/accounts/token';
import { apiGatewayEvent, lambdaContext } from '../../../../infra/local/event';
import { loadConfig } from '../../../../lib/config';
import { invocation } from '../../../../lib/http/entry';

const config = loadConfig({});

describe('the body limit', () => {
  it('answers 413 for a body over MAX_BODY_BYTES that comes without Content-Length', async () => {
    // As the function's entry serves it: the invocation answers what the function refuses.
    const handler = invocation(create(config));
    const body = Buffer.from(
      JSON.stringify({ username: 'someone', password: 'x'.repeat(config.MAX_BODY_BYTES) }),
    );
    const headers = { host: 'api.test', 'content-type': 'application/json' };
    const event = apiGatewayEvent(
      { method: 'POST', url: '/token', headers, httpVersion: '1.1' },
      body,
      'POST /token',
      undefined,
      'req-1',
    );

    const reply = await handler(event, lambdaContext('token', 'req-1'));

    expect(event.headers['content-length']).toBeUndefined();
    expect(reply.statusCode).toBe(413);
    expect(JSON.parse(reply.body ?? '{}').type).toBe('urn:tubesum:problem:payload-too-large');
  });
});
