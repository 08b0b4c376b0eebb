// The one router of a function (lib/http/serve.ts): each event to its route's action, its path
// parameters checked before the action runs, HEAD to the GET route's action, and what the
// types refuse (a missing or extra action) refused at build for an object they cannot see.
import { describe, expect, it, vi } from 'vitest';
import { apiGatewayEvent, lambdaContext } from '../../../infra/local/event';
import type { Authenticator } from '../../../lib/accounts/auth/bearer';
import type { User } from '../../../lib/accounts/users/store';
import { loadConfig } from '../../../lib/config';
import { invocation } from '../../../lib/http/entry';
import { serve } from '../../../lib/http/serve';
import { json, noContent } from '../../../lib/reply';
import { apiKeyRoutes } from '../../../lib/routes/api-keys';
import { summaryRoutes } from '../../../lib/routes/summaries';

const config = loadConfig({});
const user = { id: 'user-1' } as User;
const authenticate: Authenticator = async () => ({ user });

const call = (
  handler: ReturnType<typeof serve>,
  method: string,
  path: string,
  routeKey: string,
  pathParameters?: Record<string, string>,
) =>
  invocation(handler)(
    apiGatewayEvent(
      { method, url: path, headers: { authorization: 'Bearer t' }, httpVersion: '1.1' },
      Buffer.alloc(0),
      routeKey,
      pathParameters,
      'req-1',
    ),
    lambdaContext('test', 'req-1'),
  );

const apiKeys = (deleteApiKey = vi.fn(async () => noContent())) => ({
  deleteApiKey,
  handler: serve(
    'api-keys',
    apiKeyRoutes,
    {
      createApiKey: async () => json(201, {}),
      listApiKeys: async () => json(200, { items: [] }),
      deleteApiKey,
    },
    config,
    { authenticate },
  ),
});

describe('serve', () => {
  it('answers a malformed id with the route’s own 404, without running the action', async () => {
    const { handler, deleteApiKey } = apiKeys();

    const reply = await call(handler, 'DELETE', '/api-keys/..%2Fetc', 'DELETE /api-keys/{id}', {
      id: '../etc',
    });

    expect(reply.statusCode).toBe(404);
    expect(JSON.parse(reply.body ?? '')).toMatchObject({
      type: 'urn:tubesum:problem:not-found',
      detail: 'No such API key.',
    });
    expect(deleteApiKey).not.toHaveBeenCalled();
  });

  it('hands the action the path parameters its schemas accepted', async () => {
    const { handler, deleteApiKey } = apiKeys();
    const id = 'A'.repeat(22);

    const reply = await call(handler, 'DELETE', `/api-keys/${id}`, 'DELETE /api-keys/{id}', {
      id,
    });

    expect(reply.statusCode).toBe(204);
    expect(deleteApiKey).toHaveBeenCalledWith(expect.objectContaining({ params: { id }, user }));
  });

  it('serves HEAD with the GET route’s action', async () => {
    const getSummary = vi.fn(async () => json(200, { id: 'x' }));
    const handler = serve(
      'summaries',
      summaryRoutes,
      {
        listSummaries: async () => json(200, { items: [] }),
        getSummary,
        cancelSummary: async () => noContent(),
      },
      config,
      { authenticate },
    );
    const id = 'B'.repeat(22);

    const reply = await call(handler, 'HEAD', `/summaries/${id}`, 'HEAD /summaries/{id}', { id });

    expect(reply.statusCode).toBe(200);
    expect(getSummary).toHaveBeenCalledOnce();
  });

  it('answers an event of a route it does not serve with the opaque 500', async () => {
    const { handler } = apiKeys();

    const reply = await call(handler, 'GET', '/summaries', 'GET /summaries');

    expect(reply.statusCode).toBe(500);
  });

  it('refuses at build an action missing or extra in an object the types cannot see', () => {
    const actions: Record<string, unknown> = {
      createApiKey: async () => json(201, {}),
      listApiKeys: async () => json(200, {}),
    };
    const build = serve as (...args: unknown[]) => unknown;

    expect(() => build('api-keys', apiKeyRoutes, actions, config, { authenticate })).toThrow(
      /no action for deleteApiKey/,
    );
    expect(() =>
      build(
        'api-keys',
        apiKeyRoutes,
        { ...actions, deleteApiKey: actions.listApiKeys, summarize: actions.listApiKeys },
        config,
        { authenticate },
      ),
    ).toThrow(/serves no route summarize/);
  });
});
