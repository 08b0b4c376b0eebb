// How every Lambda is bundled, in one place: the CDK stack builds each function's asset with
// buildFunction (the local esbuild, no Docker), and scripts/bundle.ts builds the same to measure
// the bundles. Change a value here and both follow.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { askResponseSchema } from '../lib/ask/schemas';
import { type FunctionName, type RouteDef, WORKER } from '../lib/routes/route';
import { schemaVersion } from '../lib/schema-version';
import { SHIPPED_PACKAGES } from '../lib/shipped';
import { summarizeResponseSchema } from '../lib/summaries/schemas';
import { functionFile } from './function-files';

import { webBuildOptions, webFiles } from './web-build';

/** The repository root: where esbuild resolves packages and the functions' sources. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The absolute path of one Lambda's entry file (`functions/<area>/<name>.ts`). */
export function entryPath(functionName: FunctionName): string {
  return join(PROJECT_ROOT, functionFile(functionName));
}

/** The distinct function names of a route table, in first-seen order: one Lambda each. */
export function routeFunctionNames(routes: readonly RouteDef[]): FunctionName[] {
  return [...new Set(routes.map((route) => route.function))];
}

/** Every Lambda a deployment of `routes` bundles: its route functions, then the worker. */
export function functionNames(routes: readonly RouteDef[]): FunctionName[] {
  return [...routeFunctionNames(routes), WORKER];
}

// An ESM bundle has no `require`, yet CommonJS code inside it (parts of the AWS SDK, wink-nlp)
// calls require('node:https') and friends: without this banner the first call fails with
// "Dynamic require of ... is not supported".
// The alias keeps the banner from clashing with code that imports createRequire itself
// (the shipped packages' loader): esbuild renames bundled identifiers, but never the banner's.
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __bannerCreateRequire } from 'module'; const require = __bannerCreateRequire(import.meta.url);";

/** The esbuild settings shared by the stack and the size script. */
export const BUNDLE = {
  /** Lambda runs nodejs22.x; esbuild may emit syntax Node 22 understands. */
  target: 'node22',
  format: 'esm',
  minify: true,
  /** A linked .map file, read by NODE_OPTIONS=--enable-source-maps for readable stack traces. */
  sourceMap: true,
  /** Maps without the sources: stack traces only need names and positions; a smaller zip. */
  sourcesContent: false,
  /** The ESM builds of the SDK and smithy tree-shake far better (~590 KB -> ~390 KB). */
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  /**
   * Nothing external: the AWS SDK is bundled, so the code runs against the exact SDK version it
   * was tested with (not whatever the runtime ships) and only the commands used are loaded.
   */
  externalModules: [] as string[],
  /**
   * Packages replaced in Lambda bundles: the SDK's default credential chain by the environment
   * provider alone (lib/aws/lambda-credentials.ts says why), and Ajv, which the MCP SDK's Server
   * imports but never calls here, by a stub that throws (lib/mcp/ajv-left-out.ts says why).
   */
  alias: {
    '@aws-sdk/credential-provider-node': './lib/aws/lambda-credentials.ts',
    ajv: './lib/mcp/ajv-left-out.ts',
    'ajv-formats': './lib/mcp/ajv-left-out.ts',
  },
} as const;

let defines: Record<string, string> | undefined;

/**
 * Values built into every Lambda bundle (esbuild's `define`): the versions of the stored answers'
 * shapes, computed here from the very schemas being bundled (schemaVersion says why).
 */
export function bundleDefines(): Record<string, string> {
  // Computed once: a synth builds every function with the same schemas.
  defines ??= {
    __SUMMARY_SHAPE_VERSION__: JSON.stringify(schemaVersion(summarizeResponseSchema)),
    __ASK_SHAPE_VERSION__: JSON.stringify(schemaVersion(askResponseSchema)),
  };
  return defines;
}

/** swagger-ui-dist's files that lib/site/docs.ts serves; they sit beside the site function. */
export const DOCS_ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;

/** Where a package is, relative to the project root, in POSIX form (for shell commands). */
function packageDir(name: string): string {
  const pkg = createRequire(import.meta.url).resolve(`${name}/package.json`);
  return relative(PROJECT_ROOT, dirname(pkg)).split(sep).join(posix.sep);
}

/** Where swagger-ui-dist is, relative to the project root, in POSIX form (for shell commands). */
export function swaggerUiDistDir(): string {
  return packageDir('swagger-ui-dist');
}

/**
 * Packages a function loads at run time from beside its bundle: the worker's
 * (the offline model, and undici for the YouTube proxy), /ask's (undici: it reads videos too,
 * but answers offline by retrieval, without the language model), and /mcp's (undici, for
 * get_transcript and ask_video), and the collections functions' (undici: /collections reads
 * playlists and channels, questions across a collection read its videos, both through the
 * proxy). scripts/bundle.ts checks that every bundle that loads a shipped package is listed here.
 */
export const SHIPPED_BY_FUNCTION: Partial<Record<FunctionName, readonly string[]>> = {
  [WORKER]: SHIPPED_PACKAGES,
  ask: ['undici'],
  mcp: ['undici'],
  collections: ['undici'],
  'collection-ask': ['undici'],
};

/** The shipped packages of a function, with their folders relative to the project root. */
export function shippedPackages(functionName: string): { name: string; dir: string }[] {
  return (SHIPPED_BY_FUNCTION[functionName as FunctionName] ?? []).map((name) => ({
    name,
    dir: packageDir(name),
  }));
}

/** What a function needs besides its JS bundle: Swagger UI's files and the page's (site). */
export function needsDocsAssets(functionName: string): boolean {
  return functionName === 'site';
}

/**
 * Shell commands that put a function's extra files beside its bundle: Swagger UI's files next to
 * the site function (lib/site/docs.ts looks beside `import.meta.url`), and shipped packages into
 * `node_modules/`. Paths are relative to `inputDir`, the project root, so the commands work for
 * local bundling and inside a bundling container alike.
 */
export function extraFileCommands(
  functionName: string,
): (inputDir: string, outputDir: string) => string[] {
  return (inputDir, outputDir) => [
    ...(needsDocsAssets(functionName)
      ? DOCS_ASSETS.map(
          (file) => `cp "${posix.join(inputDir, swaggerUiDistDir(), file)}" "${outputDir}"`,
        )
      : []),
    ...shippedPackages(functionName).flatMap(({ name, dir }) => [
      `mkdir -p "${posix.join(outputDir, 'node_modules', posix.dirname(name))}"`,
      `cp -R "${posix.join(inputDir, dir)}" "${posix.join(outputDir, 'node_modules', name)}"`,
    ]),
  ];
}

/**
 * esbuild's options for one function, built into `dir`: `index.mjs`, and in `chunks/` the code it
 * loads on demand (each `import()` of the sources becomes a chunk: a cold start reads only what
 * the first request needs, e.g. the worker's YouTube and model clients load on first use).
 */
export function esbuildOptions(functionName: FunctionName, dir: string): BuildOptions {
  return {
    entryPoints: { index: entryPath(functionName) },
    outdir: dir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: BUNDLE.target,
    format: BUNDLE.format,
    minify: BUNDLE.minify,
    sourcemap: BUNDLE.sourceMap,
    sourcesContent: BUNDLE.sourcesContent,
    mainFields: [...BUNDLE.mainFields],
    banner: { js: BUNDLE.banner },
    external: [...BUNDLE.externalModules],
    alias: { ...BUNDLE.alias },
    define: bundleDefines(),
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: PROJECT_ROOT,
  };
}

/**
 * The code files (paths as in the metafile) a function may load: index.mjs and what it imports,
 * transitively; statically only (what a cold start loads), or with `import()` too.
 */
export function loadedOutputs(metafile: Metafile, reach: 'cold' | 'all'): string[] {
  const entry = Object.keys(metafile.outputs).find((path) => path.endsWith('/index.mjs'));
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const { path: imported, kind } of metafile.outputs[path]?.imports ?? []) {
      const follows = kind === 'import-statement' || (reach === 'all' && kind === 'dynamic-import');
      if (follows && imported in metafile.outputs) visit(imported);
    }
  };
  if (entry) visit(entry);
  return [...seen];
}

/**
 * Deletes the chunks (and their maps) nothing in the function can load. esbuild writes a chunk
 * for every `import()` of the module graph, even where tree shaking removed the call: a route
 * function that imported a module of the worker's would carry the YouTube and model chunks
 * (which need the shipped packages) without ever loading them.
 */
export function removeUnloadedOutputs(metafile: Metafile): void {
  const loaded = new Set(loadedOutputs(metafile, 'all'));
  for (const path of Object.keys(metafile.outputs)) {
    if (path.endsWith('.mjs') && !loaded.has(path)) {
      rmSync(join(PROJECT_ROOT, path), { force: true });
      rmSync(join(PROJECT_ROOT, `${path}.map`), { force: true });
    }
  }
}

/**
 * Builds a function into `dir` as its Lambda asset: the bundle (esbuildOptions) without the
 * chunks it cannot load, and the files beside it (extraFileCommands). Synchronous, as CDK's
 * local bundling wants it.
 * @throws esbuild's error when the function does not build.
 */
export function buildFunction(functionName: FunctionName, dir: string): void {
  const { metafile } = buildSync(esbuildOptions(functionName, dir));
  if (metafile) removeUnloadedOutputs(metafile);
  addExtraFiles(functionName, dir);
}

/**
 * Puts a function's extra files beside its bundle in `dir`: those of extraFileCommands, and for
 * the site function the page for people, built into `web/` (where lib/site/web.ts reads it).
 * @throws esbuild's error when web/ does not build.
 */
export function addExtraFiles(functionName: string, dir: string): void {
  for (const command of extraFileCommands(functionName)(PROJECT_ROOT, dir)) {
    execFileSync('sh', ['-c', command]);
  }
  if (!needsDocsAssets(functionName)) return;
  mkdirSync(join(dir, 'web'), { recursive: true });
  const files = webFiles(buildSync(webBuildOptions()).outputFiles ?? []);
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, 'web', name), content);
  }
}

/**
 * A function's Lambda code, built by the local esbuild (no Docker) with code splitting, which
 * NodejsFunction's esbuild command line cannot do. The asset's hash is that of the output.
 */
export function functionCode(functionName: FunctionName): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws.
      image: DockerImage.fromRegistry('local-esbuild-only'),
      // CDK caches bundled assets by their bundling options, where a tryBundle function does
      // not show: without the function's name every function would get the first one's code.
      environment: { TUBESUM_HANDLER: functionName },
      local: {
        tryBundle(outputDir) {
          buildFunction(functionName, outputDir);
          return true;
        },
      },
    },
  });
}
