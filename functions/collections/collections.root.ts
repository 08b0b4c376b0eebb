// The composition root of the function whose entry is collections.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { bearerAuthenticatorFrom } from '../../lib/accounts/auth/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { collectionSourceFrom } from '../../lib/collections/source';
import { collectionPollSeconds, retryAfterOf } from '../../lib/collections/view';
import { collectionServiceFrom } from '../../lib/collections/wiring';
import type { Config } from '../../lib/config';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { json, noContent } from '../../lib/reply';
import { collectionRoutes } from '../../lib/routes/collections';
import { type JobQueue, sqsQueueFrom } from '../../lib/summaries/jobs/queue';

/** What the local host hands the function instead of what it would build from the Config. */
export interface CollectionsServices {
  /** The local host's in-process queue; deployed, the SQS queue at JOB_QUEUE_URL. */
  queue?: JobQueue;
}

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config, services: CollectionsServices = {}) {
  const db = createDocumentClient(config);
  const authenticate = bearerAuthenticatorFrom(config, db);
  const queue = services.queue ?? sqsQueueFrom(config);
  const source = collectionSourceFrom(config);
  const collections = collectionServiceFrom(config, db, queue, source, logger);
  const at = (id: string) => collectionRoutes.getCollection.path.replace('{id}', id);
  return serve(
    'collections',
    collectionRoutes,
    {
      createCollection: async ({ body, user, requestId }) => {
        const made = await collections.create(user, body, requestId);
        return json(202, made, {
          Location: at(made.id),
          'Retry-After': String(collectionPollSeconds(made)),
        });
      },
      listCollections: async ({ user, query }) => json(200, await collections.list(user, query)),
      getCollection: async ({ user, params }) => {
        const found = await collections.get(user, params.id);
        return json(200, found, retryAfterOf(found));
      },
      cancelCollection: async ({ user, params }) => {
        const outcome = await collections.cancel(user, params.id);
        return outcome === 'removed' ? noContent() : json(200, outcome);
      },
    },
    config,
    { authenticate },
  );
}
