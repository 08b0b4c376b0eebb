// Each function's handler for the local host: built from its `functions/` file with the host's
// Config, as Lambda builds one per instance, and only when a request first needs it, so that a
// start pays for none of them (issue 38: `npm start`'s memory).
import { InvokeStore } from '@aws/lambda-invoke-store';
import type { Config } from '../../../lib/config';
import { type LambdaHandler, lazyEntry } from '../../../lib/http/entry';
import type { FunctionName } from '../../../lib/routes/route';
import { loadFunction } from '../../function-files';

/**
 * Builds each handler from its function's module with `config`, as Lambda would from its own,
 * and `services`: what the local host hands them instead of what they would build from the
 * Config (POST /summarize's queue: the host's in-process one rather than SQS).
 */
export function functionLoader(config: Config, services: Record<string, unknown> = {}) {
  return async (name: FunctionName): Promise<LambdaHandler> => {
    const module = (await loadFunction(name)) as {
      create: (config: Config, services?: Record<string, unknown>) => LambdaHandler;
    };
    // Built at once, as Lambda builds it on an instance's first event; one that cannot be (a
    // bad setting) answers 503 and is built again at the next request, as deployed.
    let built: LambdaHandler | undefined;
    try {
      built = module.create(config, services);
    } catch {
      // Answered, and logged, by the entry at the first request.
    }
    // Each invocation as Lambda's entry point serves it: its own log keys, and the reply
    // through the one exit.
    return lazyEntry(() => built ?? module.create(config, services));
  };
}

/**
 * Each function's handler, loaded at the first request that needs it and kept: later requests
 * get it without waiting a tick.
 */
export function handlerCache(load: (name: FunctionName) => Promise<LambdaHandler>) {
  const pending = new Map<FunctionName, Promise<LambdaHandler>>();
  const loaded = new Map<FunctionName, LambdaHandler>();
  return (name: FunctionName): LambdaHandler | Promise<LambdaHandler> => {
    const handler = loaded.get(name);
    if (handler) return handler;
    let loading = pending.get(name);
    if (!loading) {
      loading = load(name).then((done) => {
        loaded.set(name, done);
        return done;
      });
      pending.set(name, loading);
    }
    return loading;
  };
}

/**
 * Unlike one Lambda instance, the local host runs invocations side by side. It does what
 * Lambda's multi-concurrency runtime does: each invocation runs in its own invoke store.
 * Powertools keeps per-request log keys (request_id) apart only when AWS_LAMBDA_MAX_CONCURRENCY
 * is set in the environment, as on such a runtime: `npm start` sets it (its local.env), and so
 * do the tests (vitest.config.ts).
 */
export function concurrentInvokeStore() {
  return InvokeStore.getInstanceAsync(true);
}
