// The route table, whole: the single source of truth for the API. The local host serves it, the
// OpenAPI document (and so /docs) is generated from it, and the CDK stack deploys it.
// Each area's routes and schemas are in a module of their own, and a function imports only its
// area's (test/infra/route-areas.test.ts checks it): importing this module from a function would
// bundle every area's schemas into it. Only the site function does, as it serves the document.
import { accountRoutes } from './accounts';
import { apiKeyRoutes } from './api-keys';
import { askRoutes } from './ask';
import { collectionRoutes } from './collections';
import { docsRoutes } from './docs';
import { mcpRoutes } from './mcp';
import { oauthRoutes } from './oauth';
import type { FunctionName, RouteDef } from './route';
import { summaryRoutes } from './summaries';

/** Every route by name (its operationId), in the order the document and the stack list them. */
export const routes = {
  ...accountRoutes,
  ...summaryRoutes,
  ...collectionRoutes,
  ...askRoutes,
  ...apiKeyRoutes,
  ...mcpRoutes,
  ...oauthRoutes,
  ...docsRoutes,
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;

/**
 * Functions that touch no storage: the local host serves them while its database is still
 * starting. The stack grants them no table access (test/infra/stack.test.ts checks both agree).
 */
export const STATELESS_FUNCTIONS: ReadonlySet<FunctionName> = new Set([
  'health',
  'site',
  'oauth-metadata',
]);

export { UNROUTED_FUNCTION } from './route';
export const routeList: readonly RouteDef[] = Object.values(routes);
