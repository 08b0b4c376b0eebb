// The local host loads no function's handler at its start (issue 38: `npm start`'s memory):
// a route's handler loads at the first request that needs it, once however many requests
// arrive together, and while that request waits for the database rather than after it.
import { afterEach, expect, it, vi } from 'vitest';
import { type LocalServer, startLocalServer } from '../../../infra/local/server';
import type { LambdaHandler } from '../../../lib/http/entry';
import { json } from '../../../lib/reply';
import type { FunctionName, RouteDef } from '../../../lib/routes/route';

const route = (path: string, name: RouteDef['function']): RouteDef & { auth: false } => ({
  method: 'GET',
  path,
  function: name,
  auth: false,
  tag: 'service',
  summary: path,
  description: `A route of the ${name} function.`,
  responses: {},
});
const routes = [route('/one', 'health'), route('/two', 'register')];

let server: LocalServer | undefined;
afterEach(() => server?.close());

/** A server whose loads are recorded; each handler answers with its function's name. */
async function serve(waitFor?: (name: FunctionName) => Promise<void> | undefined) {
  const loadHandler = vi.fn(
    async (name: FunctionName): Promise<LambdaHandler> =>
      async () =>
        json(200, { name }),
  );
  server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    routes,
    maxBodyBytes: 16_384,
    corsOrigins: [],
    loadHandler,
    waitFor,
    // The $default route's function: not loaded either until a request no route takes.
    unroutedFunction: 'site',
  });
  return { url: server.url, loadHandler };
}

it('loads no handler while it starts, and only the one a request needs', async () => {
  const { url, loadHandler } = await serve();

  expect(loadHandler).not.toHaveBeenCalled();
  const response = await fetch(`${url}/one`);

  expect(await response.json()).toEqual({ name: 'health' });
  expect(loadHandler.mock.calls).toEqual([['health']]);
});

it('loads a handler once for requests that arrive together, and keeps it', async () => {
  const { url, loadHandler } = await serve();

  const answers = await Promise.all([1, 2, 3].map(() => fetch(`${url}/two`)));
  await fetch(`${url}/two`);

  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  expect(loadHandler.mock.calls).toEqual([['register']]);
});

it('loads the handler while the request waits for the database', async () => {
  let databaseUp: () => void = () => undefined;
  const database = new Promise<void>((resolve) => {
    databaseUp = resolve;
  });
  const { url, loadHandler } = await serve(() => database);

  const answer = fetch(`${url}/two`);
  await vi.waitFor(() => expect(loadHandler).toHaveBeenCalledWith('register'));
  databaseUp();

  expect((await answer).status).toBe(200);
});
