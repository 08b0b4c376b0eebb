// GET /summaries, GET /summaries/{id}, DELETE /summaries/{id}: the caller's summary jobs (their
// history, one job, cancelling or removing one). The routeKey tells which.
import { bearerAuthenticatorFrom } from '../lib/auth/wiring';
import { createDocumentClient } from '../lib/aws/dynamodb';
import type { Config } from '../lib/config';
import { createHandler, type LambdaHandler, lambdaEntry } from '../lib/http/handler';
import { json, noContent } from '../lib/http/reply';
import { servingRouteKey } from '../lib/http/router';
import { logger } from '../lib/logger';
import { summaryRoutes } from '../lib/routes/summaries';
import type { JobQueue } from '../lib/summaries/queue';
import { pollAfterSeconds } from '../lib/summaries/service';
import { summaryServiceFrom } from '../lib/summaries/wiring';

// These routes never start a run: a queue that refuses everything keeps it that way.
const noQueue: JobQueue = {
  send: async () => {
    throw new Error('the summaries function queues no jobs');
  },
};

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config): LambdaHandler {
  const db = createDocumentClient(config);
  const authenticate = bearerAuthenticatorFrom(config, db);
  const summaries = summaryServiceFrom(config, db, noQueue, logger);
  const id = (params: Record<string, string | undefined> | undefined) => params?.id ?? '';
  const byRouteKey: Record<string, LambdaHandler> = {
    [`${summaryRoutes.listSummaries.method} ${summaryRoutes.listSummaries.path}`]: createHandler(
      summaryRoutes.listSummaries,
      config,
      async ({ user, query }) => json(200, await summaries.list(user, query)),
      { authenticate },
    ),
    [`${summaryRoutes.getSummary.method} ${summaryRoutes.getSummary.path}`]: createHandler(
      summaryRoutes.getSummary,
      config,
      async ({ user, event }) => {
        const job = await summaries.get(user, id(event.pathParameters));
        const unfinished = job.status === 'queued' || job.status === 'running';
        return json(200, job, unfinished ? { 'Retry-After': String(pollAfterSeconds(job)) } : {});
      },
      { authenticate },
    ),
    [`${summaryRoutes.cancelSummary.method} ${summaryRoutes.cancelSummary.path}`]: createHandler(
      summaryRoutes.cancelSummary,
      config,
      async ({ user, event }) => {
        const outcome = await summaries.cancel(user, id(event.pathParameters));
        return outcome === 'removed' ? noContent() : json(200, outcome);
      },
      { authenticate },
    ),
  };
  return async (event, context) => {
    const route = byRouteKey[servingRouteKey(event.routeKey)];
    if (!route) throw new Error(`the summaries function does not serve ${event.routeKey}`);
    return route(event, context);
  };
}

export const handler = lambdaEntry(create);
