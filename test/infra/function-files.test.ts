import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/bundling';
import { functionFile, loadFunction } from '../../infra/function-files';
import { routeList } from '../../lib/routes';
import { type FunctionName, WORKER } from '../../lib/routes/route';

const names: FunctionName[] = [...new Set(routeList.map((route) => route.function)), WORKER];

describe('function files', () => {
  // Each entry names its file twice (the bundler's path, the local host's literal import): the
  // two must be the same module, or a deployment and `npm start` would run different code.
  it.each(names)('loads, for %s, the very module the bundler builds', async (name) => {
    const bundled = await import(join(PROJECT_ROOT, functionFile(name)));
    expect(await loadFunction(name)).toBe(bundled);
  });
});
