// The page for people (web/): one esbuild step turns web/main.tsx and web/style.css into
// app.js and app.css. The stack builds them into the docs function's asset, the local host
// builds them in memory at start, and `npm run bench` weighs them. Only esbuild is imported
// here: the local host loads this without the CDK.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import type { WebFiles } from '../lib/site/web';

/**
 * The repository root, found from this module: beside infra/ when run from the sources, and
 * several folders up when the local host runs from its build in node_modules/.cache.
 */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'web', 'main.tsx'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('web/main.tsx not found above infra/web-build.ts');
    dir = parent;
  }
}

/** esbuild's options for the page: browsers of the last few years, minified, one file each. */
export function webBuildOptions(): BuildOptions {
  return {
    absWorkingDir: projectRoot(),
    entryPoints: { app: 'web/main.tsx', 'app-style': 'web/style.css' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // What the page's own syntax needs; the bundle then runs in any browser of 2021 onwards.
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // No source maps: the page must not send the browser to fetch what it does not need.
    sourcemap: false,
    legalComments: 'none',
    write: false,
    outdir: 'out',
    logLevel: 'warning',
  };
}

let built: Promise<WebFiles> | undefined;

/**
 * Builds the page's files in memory, once per process: `app.js` and `app.css`, named as
 * GET /app/{file} serves them.
 * @throws esbuild's error when web/ does not build.
 */
export function buildWeb(): Promise<WebFiles> {
  built ??= (async () => {
    const esbuild = await import('esbuild');
    try {
      return webFiles((await esbuild.build(webBuildOptions())).outputFiles ?? []);
    } finally {
      // esbuild keeps a service process (~25 MiB) for further builds: there will be none.
      await esbuild.stop();
    }
  })();
  return built;
}

/** The page's files among esbuild's outputs (of webBuildOptions). */
export function webFiles(outputs: { path: string; text: string }[]): WebFiles {
  const named = (suffix: string) => {
    const found = outputs.find((file) => file.path.endsWith(suffix));
    if (!found) throw new Error(`the web build wrote no ${suffix}`);
    return found.text;
  };
  return { 'app.js': named('/app.js'), 'app.css': named('/app-style.css') };
}
