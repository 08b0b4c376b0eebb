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
import { routeList, routes } from '../lib/routes';
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
    [`${routes.docs.method} ${routes.docs.path}`]: createHandler(routes.docs, config, async () =>
      docsPageReply(),
    ),
    [`${routes.docsAsset.method} ${routes.docsAsset.path}`]: createHandler(
      routes.docsAsset,
      config,
      async ({ event }) =>
        docsAssetReply(
          config,
          event.pathParameters?.file ?? '',
          event.headers?.['accept-encoding'],
        ),
    ),
    [`${routes.openapi.method} ${routes.openapi.path}`]: createHandler(
      routes.openapi,
      config,
      async () => openApiReply(config),
    ),
    [`${routes.page.method} ${routes.page.path}`]: createHandler(
      routes.page,
      config,
      async ({ event }) => (await web()).page(event.headers?.['accept-encoding']),
    ),
    [`${routes.pageFile.method} ${routes.pageFile.path}`]: createHandler(
      routes.pageFile,
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
