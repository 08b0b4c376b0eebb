// The caller of a protected route, as a middleware of its stack: the
// bearer token or API key checked (401), and on login-only routes an API key refused (403).
import { loginTokenRequired } from '../../accounts/api-keys/errors';
import type { Authenticator } from '../../accounts/auth/bearer';
import type { Config } from '../../config';
import { ForbiddenError, type HttpError } from '../../errors';
import type { RouteDef } from '../../routes/route';
import { requestOrigin } from '../headers/origin';
import type { Middleware } from './middleware';

/**
 * What a login-only route answers a request with an API key: the 403 its table entry documents
 * (login-token-required, with a detail about that route), made anew, so that the document shows
 * exactly what is answered; the API keys' own problem for a route that documents none.
 */
function apiKeyRefusal(route: RouteDef): HttpError {
  const documented = route.responses[403]?.example;
  return documented
    ? new ForbiddenError(documented.type, documented.message)
    : loginTokenRequired();
}

/** The caller, and on login-only routes (key management, deletion) a 403 for an API key. */
export function authentication(
  authenticate: Authenticator,
  route: RouteDef,
  config: Config,
): Middleware {
  return {
    before: async (request) => {
      const principal = await authenticate(request.event.headers?.authorization, {
        origin: requestOrigin(config, request.event),
      });
      request.context.user = principal.user;
      request.context.apiKeyId = principal.apiKeyId;
      request.context.grantId = principal.grantId;
      request.context.scopes = principal.scopes;
      if (principal.apiKeyId !== undefined && route.loginOnly) throw apiKeyRefusal(route);
    },
  };
}
