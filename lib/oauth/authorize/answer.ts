// GET /oauth/authorize as a person's browser gets it: the request sent on to the page's consent
// screen, back to the app with an error, or an error page (never JSON: a person reads it).
import { HttpError } from '../../errors';
import type { Logger } from '../../logger';
import { noContent, type Reply } from '../../reply';
import { type AuthorizeDependencies, authorize } from './authorization';
import { errorPage, forwardingPage } from './pages';

/** A 303 to `location`. */
const seeOther = (location: string) => ({ ...noContent({ Location: location }), statusCode: 303 });

/**
 * The reply to an authorization request (its raw query) made at the page's `origin` for
 * `resource`. @throws what is no HttpError (the function's 500).
 */
export async function authorizationReply(
  deps: AuthorizeDependencies,
  rawQuery: string,
  request: { origin: string; resource: string },
  logger: Logger,
): Promise<Reply> {
  try {
    const outcome = await authorize(deps, rawQuery, {
      resource: request.resource,
      now: Date.now(),
    });
    if (outcome.kind === 'redirect') return seeOther(outcome.location);
    return forwardingPage(`${request.origin}/?authorize=${outcome.requestId}`);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.status >= 500) logger.error('authorization request failed', { error });
    else logger.info('authorization request refused', { problem: error.type });
    return errorPage(error);
  }
}
