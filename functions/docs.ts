// GET /, GET /app/{file}: the page for people; GET /docs, GET /docs/{file}, GET /openapi.json:
// the interactive documentation; and API Gateway's `$default` route: the 404/405 problem for
// requests no route of the table takes.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../lib/config';
import { docsAssetReply, docsPageReply, openApiReply } from '../lib/docs';
import { createHandler, type LambdaHandler, lambdaEntry } from '../lib/http/handler';
import { problemReply } from '../lib/http/problem';
import { createRouter, servingRouteKey, unroutedError } from '../lib/http/router';
import { logger } from '../lib/logger';
import { routeList } from '../lib/routes';
import { docsRoutes } from '../lib/routes/docs';
import { createWebApp, type WebFiles } from '../lib/web';

export interface DocsServices {
  /** The page's files, built by the local host; deployed, they are read from beside the bundle. */
  web?: Promise<WebFiles>;
}

const router = createRouter(routeList);

/** What API Gateway's own 404 would be, in our error shape: unknown path, or wrong method. */
async function unrouted(event: APIGatewayProxyEventV2) {
  const path = event.rawPath ?? '/';
  const match = router.match(path, event.requestContext.http.method);
  const error = unroutedError(match.kind === 'found' ? { kind: 'not-found' } : match, path);
  logger.info('request refused', {
    method: event.requestContext.http.method,
    status: error.status,
  });
  return problemReply(error, event.requestContext.requestId);
}

/**
 * One function serves the documentation routes and `$default`; the routeKey tells which.
 * Built from a Config (the local host and tests pass their own).
 */
export function create(config: Config, services: DocsServices = {}): LambdaHandler {
  const web = createWebApp(config, services.web);
  const byRouteKey: Record<string, LambdaHandler> = {
    [`${docsRoutes.docs.method} ${docsRoutes.docs.path}`]: createHandler(
      docsRoutes.docs,
      config,
      async () => docsPageReply(),
    ),
    [`${docsRoutes.docsAsset.method} ${docsRoutes.docsAsset.path}`]: createHandler(
      docsRoutes.docsAsset,
      config,
      async ({ event }) =>
        docsAssetReply(
          config,
          event.pathParameters?.file ?? '',
          event.headers?.['accept-encoding'],
        ),
    ),
    [`${docsRoutes.openapi.method} ${docsRoutes.openapi.path}`]: createHandler(
      docsRoutes.openapi,
      config,
      async () => openApiReply(config),
    ),
    [`${docsRoutes.page.method} ${docsRoutes.page.path}`]: createHandler(
      docsRoutes.page,
      config,
      async ({ event }) => (await web()).page(event.headers?.['accept-encoding']),
    ),
    [`${docsRoutes.pageFile.method} ${docsRoutes.pageFile.path}`]: createHandler(
      docsRoutes.pageFile,
      config,
      async ({ event }) =>
        (await web()).file(event.pathParameters?.file ?? '', event.headers?.['accept-encoding']),
    ),
  };
  return async (event, context) => {
    const route = byRouteKey[servingRouteKey(event.routeKey)];
    return route ? route(event, context) : unrouted(event);
  };
}

export const handler = lambdaEntry(create);
