// GET /docs, GET /docs/{file}, GET /openapi.json: the interactive documentation; and API
// Gateway's `$default` route: the 404/405 problem for requests no route of the table takes.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { docsAssetReply, docsPageReply, openApiReply } from '../lib/docs';
import { createHandler } from '../lib/http/handler';
import { logger } from '../lib/http/logger';
import { problemReply } from '../lib/http/problem';
import { createRouter, unroutedError } from '../lib/http/router';
import { routeList, routes } from '../lib/routes';

const page = createHandler(routes.docs, async () => docsPageReply());
const asset = createHandler(routes.docsAsset, async ({ event, config }) =>
  docsAssetReply(config, event.pathParameters?.file ?? '', event.headers?.['accept-encoding']),
);
const openapi = createHandler(routes.openapi, async ({ config }) => openApiReply(config));

const byRouteKey: Record<string, typeof page> = {
  [`${routes.docs.method} ${routes.docs.path}`]: page,
  [`${routes.docsAsset.method} ${routes.docsAsset.path}`]: asset,
  [`${routes.openapi.method} ${routes.openapi.path}`]: openapi,
};

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

/** One function serves the documentation routes and `$default`; the routeKey tells which. */
export const handler = (event: APIGatewayProxyEventV2, context: Context) => {
  const route = byRouteKey[event.routeKey];
  return route ? route(event, context) : unrouted(event);
};
