// POST /summarize: summarise a video's transcript for the authenticated user.
import { authenticateBearer } from '../lib/auth/bearer';
import { authenticatedUser, createHandler } from '../lib/http/handler';
import { json } from '../lib/http/reply';
import { routes } from '../lib/routes';
import { getSummaryService } from '../lib/summaries/wiring';

/** Time kept back from Lambda's own timeout to answer 504 ourselves. */
const MARGIN_MS = 1_500;

export const handler = createHandler(
  routes.summarize,
  async (context) => {
    const deadlineMs = Math.min(
      context.config.SUMMARIZE_DEADLINE_MS,
      context.lambda.getRemainingTimeInMillis() - MARGIN_MS,
    );
    const result = await getSummaryService().summarize(
      authenticatedUser(context),
      context.body,
      AbortSignal.timeout(Math.max(1_000, deadlineMs)),
    );
    return json(200, result);
  },
  { authenticate: authenticateBearer },
);
