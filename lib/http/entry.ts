// How every function is entered, deployed and local alike: one invocation's log keys set and
// reset, its reply (or the opaque 500 of a crash, or the 503 of a configuration it cannot start
// with) through the one exit (exit.ts).
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { type Config, loadConfig } from '../config';
import { appendLogKeys, logger, resetLogKeys } from '../logger';
import { builtOnFirstCall } from '../util/lazy';
import { exit, requestIdOf } from './exit';
import { problemReply } from './problem';
import type { Reply } from './reply';

/** A Lambda handler of an API Gateway HTTP API route (payload format 2.0). */
export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<Reply>;

/**
 * One invocation as every function serves it: the log keys of the request alone (the keys of
 * the invocation before are reset, as Powertools' injectLambdaContext({ resetKeys: true })
 * does), a crash answered with the opaque 500 problem, and the reply through the one exit.
 */
export function invocation(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    const requestId = requestIdOf(event);
    resetLogKeys();
    appendLogKeys({ request_id: requestId });
    try {
      return exit(await handler(event, context), requestId);
    } catch (error) {
      logger.error('request failed', { error });
      return exit(problemReply(error, requestId), requestId);
    }
  };
}

/**
 * A function's entry: `build` makes its handler on the first event, and that handler serves
 * every later one. A handler that cannot be built (an invalid configuration) answers 503
 * server-misconfigured, and is built again on the next event.
 */
export function functionEntry(build: () => LambdaHandler): LambdaHandler {
  return invocation(
    builtOnFirstCall(build, async (error, event) => {
      logger.error('the function cannot start: invalid configuration', { error });
      // The codec answers a ConfigError with 503 server-misconfigured (lib/problems.ts).
      return problemReply(error, requestIdOf(event));
    }),
  );
}

/**
 * The Lambda entry point of a function module: its handler built by `create` from the
 * environment's Config (functionEntry). Importing a function module thus reads nothing: the
 * local host and the tests call `create` with Configs of their own.
 */
export function lambdaEntry(create: (config: Config) => LambdaHandler): LambdaHandler {
  return functionEntry(() => create(loadConfig()));
}
