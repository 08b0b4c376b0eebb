// What each Lambda's sources reach of the route table, as esbuild resolves them for the stack
// (type-only imports are gone; packages are left out, they hold no route). A function reaches its
// own area's routes and schemas and no other's, so a route added to one area leaves the other
// functions' bundles as they were (issue 14: each under 400 KB). Only the docs function takes
// the whole table: it serves the OpenAPI document and answers API Gateway's `$default` route.
// Cheaper than bundling: no package is read, nothing is written.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, functionNames } from '../../infra/bundling';
import { routeList } from '../../lib/routes';
import type { FunctionName, RouteDef } from '../../lib/routes/route';

/** The module that assembles every area's routes. */
const WHOLE_TABLE = 'lib/routes/index.ts';

/** The area module (lib/routes/<area>.ts) of each function's routes; none for the others. */
const AREA_OF: Record<FunctionName, string | undefined> = {
  // Answers without the shared HTTP layer, so without its route's definition.
  health: undefined,
  register: 'accounts',
  token: 'accounts',
  account: 'accounts',
  summarize: 'summaries',
  summaries: 'summaries',
  collections: 'collections',
  'collection-ask': 'collections',
  ask: 'ask',
  'api-keys': 'api-keys',
  mcp: 'mcp',
  site: 'docs',
  'oauth-metadata': 'oauth',
  'oauth-clients': 'oauth',
  'oauth-token': 'oauth',
  'connected-apps': 'oauth',
  // Serves no route: it consumes the job queue.
  worker: undefined,
};

const functions = functionNames(routeList);
const sources = new Map<FunctionName, string[]>();

beforeAll(async () => {
  for (const name of functions) {
    const result = await build({
      ...esbuildOptions(name, join(tmpdir(), 'tubesum-route-areas')),
      write: false,
      packages: 'external',
      minify: false,
      sourcemap: false,
    });
    // Paths relative to the project root, as esbuild names its inputs.
    sources.set(name, Object.keys(result.metafile?.inputs ?? {}));
  }
}, 60_000);

const areaModule = (area: string) => `lib/routes/${area}.ts`;
const AREA_MODULES = new Set(
  Object.values(AREA_OF).flatMap((area) => (area ? [areaModule(area)] : [])),
);

/** The area modules a function's sources reach (the modules the areas share are not counted). */
const areaModulesOf = (name: FunctionName) =>
  (sources.get(name) ?? []).filter((path) => AREA_MODULES.has(path)).sort();

describe('the route table in the functions', () => {
  it('is reached whole by the site function alone', () => {
    const whole = functions.filter((name) => sources.get(name)?.includes(WHOLE_TABLE));

    expect(whole).toEqual(['site']);
  });

  it("gives every other function its own area's routes and schemas, and no other area's", () => {
    for (const name of functions.filter((name) => name !== 'site')) {
      const area = AREA_OF[name];

      expect(areaModulesOf(name), name).toEqual(area === undefined ? [] : [areaModule(area)]);
    }
  });

  it("holds each function's routes in that function's area module", async () => {
    for (const name of functions) {
      const area = AREA_OF[name];
      if (area === undefined) continue;
      const served = routeList.filter((route) => route.function === name);
      // Each area module exports its routes as one `<area>Routes` object. The path's static part
      // names the folder and the extension, as Vite needs to resolve a dynamic import
      // (vite:dynamic-import-vars); it is areaModule(area).
      const module: Record<string, unknown> = await import(`../../lib/routes/${area}.ts`);
      const held = new Set(
        Object.entries(module)
          .filter(([exported]) => exported.endsWith('Routes'))
          .flatMap(([, routes]) => Object.values(routes as Record<string, RouteDef>)),
      );

      expect(
        served.filter((route) => !held.has(route)).map((route) => `${route.method} ${route.path}`),
        name,
      ).toEqual([]);
    }
  });
});
