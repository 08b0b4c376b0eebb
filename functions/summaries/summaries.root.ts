// The composition root of the function whose entry is summaries.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { bearerAuthenticatorFrom } from '../../lib/accounts/auth/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import type { LambdaHandler } from '../../lib/http/entry';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { json, noContent } from '../../lib/reply';
import { summaryRoutes } from '../../lib/routes/summaries';
import type { JobQueue } from '../../lib/summaries/jobs/queue';
import { pollAfterSeconds } from '../../lib/summaries/service';
import { summaryServiceFrom } from '../../lib/summaries/wiring';

// These routes never start a run: a queue that refuses everything keeps it that way.
const noQueue: JobQueue = {
  send: async () => {
    throw new Error('the summaries function queues no jobs');
  },
};

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config): LambdaHandler {
  const db = createDocumentClient(config);
  const authenticate = bearerAuthenticatorFrom(config, db);
  const summaries = summaryServiceFrom(config, db, noQueue, logger);
  return serve(
    'summaries',
    summaryRoutes,
    {
      listSummaries: async ({ user, query }) => json(200, await summaries.list(user, query)),
      getSummary: async ({ user, params }) => {
        const job = await summaries.get(user, params.id);
        const unfinished = job.status === 'queued' || job.status === 'running';
        return json(200, job, unfinished ? { 'Retry-After': String(pollAfterSeconds(job)) } : {});
      },
      cancelSummary: async ({ user, params }) => {
        const outcome = await summaries.cancel(user, params.id);
        return outcome === 'removed' ? noContent() : json(200, outcome);
      },
    },
    config,
    { authenticate },
  );
}
