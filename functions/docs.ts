// GET /docs, GET /docs/{file}, GET /openapi.json: the interactive documentation.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { docsAssetReply, docsPageReply, openApiReply } from '../lib/docs';
import { createHandler } from '../lib/http/handler';
import { routes } from '../lib/routes';

const page = createHandler(routes.docs, async () => docsPageReply());
const asset = createHandler(routes.docsAsset, async ({ event, config }) =>
  docsAssetReply(config, event.pathParameters?.file ?? '', event.headers?.['accept-encoding']),
);
const openapi = createHandler(routes.openapi, async () => openApiReply());

const byRouteKey: Record<string, typeof page> = {
  [`${routes.docs.method} ${routes.docs.path}`]: page,
  [`${routes.docsAsset.method} ${routes.docsAsset.path}`]: asset,
  [`${routes.openapi.method} ${routes.openapi.path}`]: openapi,
};

/** One function serves the three documentation routes; API Gateway's routeKey tells which. */
export const handler = (event: APIGatewayProxyEventV2, context: Context) => {
  const route = byRouteKey[event.routeKey] ?? page;
  return route(event, context);
};
