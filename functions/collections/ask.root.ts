// The composition root of the function whose entry is ask.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { bearerAuthenticatorFrom } from '../../lib/accounts/auth/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import { collectionAskFrom } from '../../lib/collections/wiring';
import type { Config } from '../../lib/config';
import { ASK_MARGIN_MS } from '../../lib/config/summaries';
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
        // Never past the Lambda's own end: the margin is left to send the answer (or the 504).
        const deadlineMs = Math.max(
          0,
          Math.min(config.ASK_DEADLINE_MS, lambda.getRemainingTimeInMillis() - ASK_MARGIN_MS),
        );
        const answer = await questions.ask(user, params.id, body.question, {
          signal: AbortSignal.timeout(deadlineMs),
          deadlineAt: Date.now() + deadlineMs,
        });
        return json(200, answer);
      },
    },
    config,
    { authenticate },
  );
}
