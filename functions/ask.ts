// POST /ask: a question about a video, answered within the request with citations that open
// the video at the captions that say it.

import { bearerAuthenticatorFrom } from '../lib/accounts/auth/wiring';
import { askServiceFrom } from '../lib/ask/wiring';
import { createDocumentClient } from '../lib/aws/dynamodb';
import type { Config } from '../lib/config';
import { ASK_MARGIN_MS } from '../lib/config/summaries';
import { lambdaEntry } from '../lib/http/entry';
import { serve } from '../lib/http/serve';
import { logger } from '../lib/logger';
import { json } from '../lib/reply';
import { askRoutes } from '../lib/routes/ask';

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config) {
  const db = createDocumentClient(config);
  const authenticate = bearerAuthenticatorFrom(config, db);
  const questions = askServiceFrom(config, db, logger);
  return serve(
    'ask',
    askRoutes,
    {
      ask: async ({ body, user, lambda }) => {
        // Never past the Lambda's own end: the margin is left to send the answer (or the 504).
        const deadlineMs = Math.max(
          0,
          Math.min(config.ASK_DEADLINE_MS, lambda.getRemainingTimeInMillis() - ASK_MARGIN_MS),
        );
        const answer = await questions.ask(user, body, {
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

export const handler = lambdaEntry(create);
