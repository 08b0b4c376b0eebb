// POST /summarize: summarise a video's transcript for the authenticated user.
import { createBearerAuthenticator } from '../lib/auth/bearer';
import { tokenSettingsFrom } from '../lib/auth/settings';
import { createDocumentClient } from '../lib/aws/dynamodb';
import { type Config, SUMMARIZE_MARGIN_MS } from '../lib/config';
import { createHandler, lambdaEntry } from '../lib/http/handler';
import { json } from '../lib/http/reply';
import { logger } from '../lib/logger';
import { routes } from '../lib/routes';
import { summaryServiceFrom } from '../lib/summaries/wiring';
import { createUserStore } from '../lib/users/store';

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config) {
  const db = createDocumentClient(config);
  const users = createUserStore(db, config.TABLE_NAME);
  const authenticate = createBearerAuthenticator({
    tokenSettings: tokenSettingsFrom(config),
    findUser: (id) => users.getById(id),
  });
  const summaries = summaryServiceFrom(config, db, logger);
  return createHandler(
    routes.summarize,
    config,
    async ({ body, user, lambda }) => {
      // Our own deadline, and never past the Lambda's: the margin is left to answer the 504.
      const deadlineMs = Math.min(
        config.SUMMARIZE_DEADLINE_MS,
        lambda.getRemainingTimeInMillis() - SUMMARIZE_MARGIN_MS,
      );
      const result = await summaries.summarize(
        user,
        body,
        AbortSignal.timeout(Math.max(1_000, deadlineMs)),
      );
      return json(200, result);
    },
    { authenticate },
  );
}

export const handler = lambdaEntry(create);
