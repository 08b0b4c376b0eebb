// The composition root of the function whose entry is ask.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { bearerAuthenticatorFrom } from '../../lib/accounts/auth/wiring';
import { askDeadline } from '../../lib/ask/deadline';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { collectionAskFrom } from '../../lib/collections/wiring';
import type { Config } from '../../lib/config';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { json } from '../../lib/reply';
import { collectionRoutes } from '../../lib/routes/collections';

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config) {
  const db = createDocumentClient(config);
  const authenticate = bearerAuthenticatorFrom(config, db);
  const questions = collectionAskFrom(config, db, logger);
  return serve(
    'collection-ask',
    collectionRoutes,
    {
      askCollection: async ({ body, user, params, lambda }) => {
        const answer = await questions.ask(
          user,
          params.id,
          body.question,
          askDeadline(config.ASK_DEADLINE_MS, lambda),
        );
        return json(200, answer);
      },
    },
    config,
    { authenticate },
  );
}
