// The site: GET /, GET /app/{file}: the page for people; GET /docs, GET /docs/{file},
// GET /openapi.json: the interactive documentation; and API Gateway's `$default` route: the
// 404/405 problem for requests no route of the table takes.
import type { Config } from '../lib/config';
import { type LambdaHandler, lambdaEntry } from '../lib/http/entry';
import { serve } from '../lib/http/serve';
import { routeList } from '../lib/routes';
import { docsRoutes } from '../lib/routes/docs';
import { docsAssetReply, docsPageReply, openApiReply } from '../lib/site/docs';
import { createWebApp, type WebFiles } from '../lib/site/web';

export interface SiteServices {
  /** The page's files, built by the local host; deployed, they are read from beside the bundle. */
  web?: Promise<WebFiles>;
}

/** The function's handler, built from a Config (the local host and tests pass their own). */
export function create(config: Config, services: SiteServices = {}): LambdaHandler {
  const web = createWebApp(config, services.web);
  const acceptEncoding = (headers: Record<string, string | undefined> | undefined) =>
    headers?.['accept-encoding'];
  return serve(
    'site',
    docsRoutes,
    {
      docs: async () => docsPageReply(),
      docsAsset: async ({ params, event }) =>
        docsAssetReply(config, params.file, acceptEncoding(event.headers)),
      openapi: async () => openApiReply(config),
      page: async ({ event }) => (await web()).page(acceptEncoding(event.headers)),
      pageFile: async ({ params, event }) =>
        (await web()).file(params.file, acceptEncoding(event.headers)),
    },
    config,
    { unrouted: routeList },
  );
}

export const handler = lambdaEntry(create);
