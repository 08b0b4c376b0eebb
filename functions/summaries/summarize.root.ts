// The composition root of the function whose entry is summarize.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { bearerAuthenticatorFrom } from '../../lib/accounts/auth/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import { SUMMARIZE_MARGIN_MS } from '../../lib/config/summaries';
import { preferenceApplied, readPreferences, waitMsFor } from '../../lib/http/headers/prefer';
import { serve } from '../../lib/http/serve';
import type { ContextOf } from '../../lib/http/stack/route-stack';
import { logger } from '../../lib/logger';
import { json } from '../../lib/reply';
import { summaryRoutes } from '../../lib/routes/summaries';
import { type JobQueue, sqsQueueFrom } from '../../lib/summaries/jobs/queue';
import { pollAfterSeconds } from '../../lib/summaries/service';
import { summaryServiceFrom } from '../../lib/summaries/wiring';

/** What the local host hands the function instead of what it would build from the Config. */
export interface SummarizeServices {
  /** The local host's in-process queue; deployed, the SQS queue at JOB_QUEUE_URL. */
  queue?: JobQueue;
}

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config, services: SummarizeServices = {}) {
  const db = createDocumentClient(config);
  const authenticate = bearerAuthenticatorFrom(config, db);
  const queue = services.queue ?? sqsQueueFrom(config);
  const summaries = summaryServiceFrom(config, db, queue, logger);
  type Context = ContextOf<typeof summaryRoutes.summarize>;
  const summarize = async ({ body, user, event, lambda, requestId }: Context) => {
    const preferences = readPreferences(event.headers?.prefer);
    // Never past the Lambda's own end: the margin is left to answer the 202.
    const waitMs = Math.max(
      0,
      Math.min(
        waitMsFor(preferences, config.SUMMARIZE_WAIT_MS),
        lambda.getRemainingTimeInMillis() - SUMMARIZE_MARGIN_MS,
      ),
    );
    const submitted = await summaries.submit(user, body, { waitMs, requestId });
    const applied = preferenceApplied(preferences, !submitted.ready);
    const headers: Record<string, string> = applied ? { 'Preference-Applied': applied } : {};
    // Where the job is polled: its route's path (Location of a 202, Content-Location of a 200).
    const location = summaryRoutes.getSummary.path.replace('{id}', submitted.job.id);
    if (submitted.ready) {
      return json(200, submitted.response, { ...headers, 'Content-Location': location });
    }
    return json(202, submitted.job, {
      ...headers,
      Location: location,
      'Retry-After': String(pollAfterSeconds(submitted.job)),
    });
  };
  return serve('summarize', summaryRoutes, { summarize }, config, { authenticate });
}
