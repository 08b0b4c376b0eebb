// How every function is entered, deployed and local alike: one invocation's log keys set and
// reset, its failures made replies (a route's problem, the opaque 500 of a crash, the 503 of a
// configuration it cannot start with), and its reply through the one exit.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { type Config, loadConfig } from '../config';
import { appendLogKeys, logger, resetLogKeys } from '../logger';
import { type ErrorForm, errorReply } from '../problems/replies';
import type { Reply } from '../reply';
import { builtOnFirstCall, loadedOnFirstCall } from '../util/lazy';
import { exit, requestIdOf } from './exit';

/** A Lambda handler of an API Gateway HTTP API route (payload format 2.0). */
export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<Reply>;

/**
 * A failure on its way to the invocation, which answers it: logged already where it happened (a
 * route's access line, the `$default` route's, a function that cannot start), with the form the
 * route that failed writes its errors in.
 */
export class LoggedFailure extends Error {
  override name = 'LoggedFailure';
  constructor(
    readonly failure: unknown,
    readonly form: ErrorForm = {},
  ) {
    super('a failure, logged, to be answered', { cause: failure });
  }
}

/**
 * One invocation as every function serves it: the log keys of the request alone (the keys of
 * the invocation before are reset, as Powertools' injectLambdaContext({ resetKeys: true })
 * does), and the reply through the one exit. The one place a failure becomes a reply: a route's
 * in its route's form, a crash as the opaque 500 problem (logged here).
 */
export function invocation(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    const requestId = requestIdOf(event);
    resetLogKeys();
    appendLogKeys({ request_id: requestId });
    try {
      return exit(await handler(event, context), requestId);
    } catch (thrown) {
      if (thrown instanceof LoggedFailure) {
        return exit(errorReply(thrown.failure, requestId, thrown.form), requestId);
      }
      logger.error('request failed', { error: thrown });
      return exit(errorReply(thrown, requestId), requestId);
    }
  };
}

/**
 * A function's entry: `build` makes its handler on the first event, and that handler serves
 * every later one. A handler that cannot be built (an invalid configuration) answers 503
 * server-misconfigured, and is built again on the next event.
 */
export function lazyEntry(build: () => LambdaHandler): LambdaHandler {
  return invocation(builtOnFirstCall(build, cannotStart));
}

async function cannotStart(error: unknown): Promise<never> {
  logger.error('the function cannot start: invalid configuration', { error });
  // The codec answers a ConfigError with 503 server-misconfigured.
  throw new LoggedFailure(error);
}

/**
 * A function's handler whose code loads on its first event: `load` imports the module that
 * composes it (an `import()`, which the bundle makes a chunk of its own), `build` makes the
 * handler from it. The entry a cold start imports thus stays small; what a request needs is
 * read when the first one comes. A handler that cannot be built (an invalid setting) is answered
 * as lazyEntry answers it, and built again on the next event.
 */
export function loadedOnFirstEvent<M>(
  load: () => Promise<M>,
  build: (module: M) => LambdaHandler,
): LambdaHandler {
  return loadedOnFirstCall(load, build, cannotStart);
}

/**
 * The Lambda entry point of a function module: its handler built by `create` from the
 * environment's Config (lazyEntry). Importing a function module thus reads nothing: the
 * local host and the tests call `create` with Configs of their own.
 */
export function lambdaEntry(create: (config: Config) => LambdaHandler): LambdaHandler {
  return lazyEntry(() => create(loadConfig()));
}
