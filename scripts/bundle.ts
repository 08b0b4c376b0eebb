// Builds every Lambda exactly as the CDK stack does (infra/bundling.ts) and reports its size:
// what a cold start loads (index.mjs and the chunks it imports statically) and what loads on
// demand. `npx tsx scripts/bundle.ts [outdir] [--why]`; `--why` lists what fills the cold part
// of each bundle, from esbuild's metafile. `bundleFunctions()` returns the numbers for the
// benchmarks.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import {
  addExtraFiles,
  esbuildOptions,
  functionNames,
  loadedOutputs,
  PROJECT_ROOT,
  removeUnloadedOutputs,
  shippedPackages,
} from '../infra/bundling';
import { routeList } from '../lib/routes';

/** Targets from the infra issue: /health stays tiny and SDK-free, the rest under 400 KB. */
export const SIZE_TARGETS_KB = { health: 5, other: 400 } as const;

export interface BundleSize {
  /** The function's name. */
  name: string;
  /** What a cold start loads: index.mjs and the chunks it imports statically (no maps). */
  minifiedBytes: number;
  gzipBytes: number;
  /** Chunks loaded on demand only (`import()`), e.g. the worker's model clients. */
  lazyBytes: number;
  /**
   * What the entry imports on its first event (its composition root: `import()`s of the cold
   * part), relative to the function's folder; each loads what it imports statically with it.
   */
  firstEventImports: string[];
  /** Whether any AWS SDK (or smithy) module made it into the bundle. */
  includesAwsSdk: boolean;
  /** Files shipped beside the bundle: Swagger UI (docs), run-time packages (worker). */
  assetBytes: number;
  /** Bytes of output per npm package (or `(project)` for functions/ and lib/), largest first. */
  packages: { name: string; bytes: number }[];
  /** Within the target of SIZE_TARGETS_KB. */
  withinTarget: boolean;
}

/** The npm package a metafile input path belongs to, or `(project)`. */
function packageOf(input: string): string {
  const at = input.lastIndexOf('node_modules/');
  if (at === -1) return '(project)';
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? input);
}

function packagesOf(
  metafile: Metafile,
  outputs: readonly string[],
): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const path of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[path]?.inputs ?? {})) {
      const name = packageOf(input);
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** The outputs the cold part imports with `import()`, relative to `functionDir`. */
function dynamicImportsOf(metafile: Metafile, cold: readonly string[], functionDir: string) {
  const targets = cold.flatMap((path) =>
    (metafile.outputs[path]?.imports ?? [])
      .filter(
        ({ kind, path: imported }) => kind === 'dynamic-import' && imported in metafile.outputs,
      )
      .map(({ path: imported }) => relative(functionDir, join(PROJECT_ROOT, imported))),
  );
  return [...new Set(targets)];
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/**
 * Bundles each Lambda (the route table's functions and the worker) into `outdir/<name>/` (a
 * temp folder by default, removed afterwards) and measures it.
 * @throws esbuild's error when a function does not build.
 */
export async function bundleFunctions(options: { outdir?: string } = {}): Promise<BundleSize[]> {
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), 'tubesum-bundles-'));
  try {
    const sizes: BundleSize[] = [];
    for (const name of functionNames(routeList)) {
      const functionDir = join(outdir, name);
      const result = await build(esbuildOptions(name, functionDir));
      const metafile = result.metafile as Metafile;
      // What the stack's bundling does besides esbuild, so outdir mirrors the Lambda asset.
      removeUnloadedOutputs(metafile);
      addExtraFiles(name, functionDir);
      const cold = loadedOutputs(metafile, 'cold');
      const loaded = loadedOutputs(metafile, 'all');
      const code = Buffer.concat(cold.map((path) => readFileSync(join(PROJECT_ROOT, path))));
      // The code and maps that are left; the rest of the folder is what ships beside them.
      const outputBytes = Object.keys(metafile.outputs)
        .filter((path) => existsSync(join(PROJECT_ROOT, path)))
        .reduce((sum, path) => sum + statSync(join(PROJECT_ROOT, path)).size, 0);
      const codeBytes = loaded.reduce(
        (sum, path) => sum + statSync(join(PROJECT_ROOT, path)).size,
        0,
      );
      const assetBytes = folderBytes(functionDir) - outputBytes;
      const usesShipped = loaded.some((path) =>
        Object.keys(metafile.outputs[path]?.inputs ?? {}).some((input) =>
          input.endsWith('lib/shipped.ts'),
        ),
      );
      if (usesShipped && shippedPackages(name).length === 0) {
        throw new Error(
          `${name} loads shipped packages: list it in SHIPPED_BY_FUNCTION (infra/bundling.ts)`,
        );
      }
      const packages = packagesOf(metafile, cold);
      const includesAwsSdk = packagesOf(metafile, loaded).some(
        (p) => p.name.startsWith('@aws-sdk/') || p.name.startsWith('@smithy/'),
      );
      const limitKb = name === 'health' ? SIZE_TARGETS_KB.health : SIZE_TARGETS_KB.other;
      sizes.push({
        name,
        minifiedBytes: code.length,
        gzipBytes: gzipSync(code).length,
        lazyBytes: codeBytes - code.length,
        firstEventImports: dynamicImportsOf(metafile, cold, functionDir),
        includesAwsSdk,
        assetBytes,
        packages,
        withinTarget: code.length <= limitKb * 1024 && (name !== 'health' || !includesAwsSdk),
      });
    }
    return sizes;
  } finally {
    if (options.outdir === undefined) rmSync(outdir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** A plain-text table of the sizes (what the script prints). */
export function formatSizes(sizes: readonly BundleSize[], why = false): string {
  const lines = [
    'function    cold KB   gzip KB   on demand KB   AWS SDK   target    other files',
    ...sizes.map((s) => {
      const target = s.name === 'health' ? SIZE_TARGETS_KB.health : SIZE_TARGETS_KB.other;
      return [
        s.name.padEnd(11),
        kb(s.minifiedBytes).padStart(7),
        kb(s.gzipBytes).padStart(9),
        kb(s.lazyBytes).padStart(14),
        (s.includesAwsSdk ? 'yes' : 'no').padStart(9),
        `${s.withinTarget ? 'ok' : 'OVER'} ${target}`.padStart(9),
        s.assetBytes > 0 ? `   ${kb(s.assetBytes)} KB beside it` : '',
      ].join(' ');
    }),
  ];
  if (why) {
    for (const s of sizes) {
      lines.push('', `${s.name}: largest contributors to a cold start (minified KB)`);
      for (const p of s.packages.slice(0, 8)) lines.push(`  ${kb(p.bytes).padStart(8)}  ${p.name}`);
    }
  }
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outdir = args.find((arg) => !arg.startsWith('--'));
  const sizes = await bundleFunctions(outdir ? { outdir: resolve(outdir) } : {});
  console.log(formatSizes(sizes, args.includes('--why')));
  if (outdir) console.log(`\nbundles in ${resolve(outdir)}`);
}
