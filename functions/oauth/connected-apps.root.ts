// The composition root of the function whose entry is connected-apps.ts: what it builds from its Config,
// loaded (an import() of the entry, a chunk of the bundle) when its first event comes.
import { bearerAuthenticatorFrom } from '../../lib/accounts/auth/wiring';
import { createDocumentClient } from '../../lib/aws/dynamodb';
import type { Config } from '../../lib/config';
import type { LambdaHandler } from '../../lib/http/entry';
import { isAllowedOrigin, requestOrigin } from '../../lib/http/headers/origin';
import { serve } from '../../lib/http/serve';
import { logger } from '../../lib/logger';
import { decide, viewRequest } from '../../lib/oauth/authorize/authorization';
import { disconnectApp, listConnectedApps } from '../../lib/oauth/connected-apps';
import { crossSiteAnswer } from '../../lib/oauth/errors';
import { consentFrom } from '../../lib/oauth/wiring';
import { json, noContent } from '../../lib/reply';
import { oauthRoutes } from '../../lib/routes/oauth';

/** The function's handler, built from a Config: the entry builds it on the first event. */
export function create(config: Config): LambdaHandler {
  const db = createDocumentClient(config);
  const authenticate = bearerAuthenticatorFrom(config, db);
  const consent = consentFrom(config, db);
  const { grants } = consent;
  return serve(
    'connected-apps',
    oauthRoutes,
    {
      authorizationRequest: async ({ params }) =>
        json(200, await viewRequest(consent.flows, params.id, Date.now())),
      answerAuthorizationRequest: async ({ user, body, params, event }) => {
        // The page sends it with the person's token, which no other site has; a browser also
        // names the page's origin, and an answer from another one is refused all the same (the
        // rule /mcp's Origin follows, with no other origin allowed).
        if (!isAllowedOrigin(event.headers?.origin, requestOrigin(config, event), [])) {
          throw crossSiteAnswer();
        }
        const answer = await decide(consent, {
          id: params.id,
          userId: user.id,
          decision: body.decision,
          now: Date.now(),
        });
        logger.info('connection request answered', { user_id: user.id, decision: body.decision });
        return json(200, answer);
      },
      listConnectedApps: async ({ user }) =>
        json(200, { items: await listConnectedApps(grants, user.id, Date.now()) }),
      disconnectApp: async ({ user, params }) => {
        await disconnectApp(grants, user.id, params.id, Date.now());
        logger.info('app disconnected', { user_id: user.id });
        return noContent();
      },
    },
    config,
    { authenticate },
  );
}
