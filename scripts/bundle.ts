// Builds every Lambda exactly as the CDK stack does (infra/bundling.ts) and reports its size:
// `npx tsx scripts/bundle.ts [outdir] [--why]`. `--why` lists what fills each bundle, from
// esbuild's metafile. `bundleFunctions()` returns the numbers for the benchmarks.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import {
  esbuildOptions,
  extraFileCommands,
  handlerNames,
  PROJECT_ROOT,
  shippedPackages,
} from '../infra/bundling';
import { routeList } from '../lib/routes';

/** Targets from the infra issue: /health stays tiny and SDK-free, the rest under 400 KB. */
export const SIZE_TARGETS_KB = { health: 5, other: 400 } as const;

export interface BundleSize {
  handler: string;
  /** The minified index.mjs, without its source map. */
  minifiedBytes: number;
  gzipBytes: number;
  /** Whether any AWS SDK (or smithy) module made it into the bundle. */
  includesAwsSdk: boolean;
  /** Files shipped beside the bundle: Swagger UI (docs), run-time packages (summarize). */
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

function packagesOf(metafile: Metafile): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input);
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

function mapBytes(dir: string): number {
  try {
    return statSync(join(dir, 'index.mjs.map')).size;
  } catch {
    return 0;
  }
}

/**
 * Bundles each handler of the route table into `outdir/<handler>/` (a temp folder by default,
 * removed afterwards) and measures it.
 * @throws esbuild's error when a handler does not build.
 */
export async function bundleFunctions(options: { outdir?: string } = {}): Promise<BundleSize[]> {
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), 'tubesum-bundles-'));
  try {
    const sizes: BundleSize[] = [];
    for (const handler of handlerNames(routeList)) {
      const result = await build(esbuildOptions(handler, outdir));
      const code = readFileSync(join(outdir, handler, 'index.mjs'));
      // What the stack's afterBundling hook does, so outdir mirrors the Lambda asset.
      const handlerDir = join(outdir, handler);
      for (const command of extraFileCommands(handler)(PROJECT_ROOT, handlerDir)) {
        execFileSync('sh', ['-c', command]);
      }
      const assetBytes = folderBytes(handlerDir) - code.length - mapBytes(handlerDir);
      const usesShipped = Object.keys(result.metafile?.inputs ?? {}).some((input) =>
        input.endsWith('lib/shipped.ts'),
      );
      if (usesShipped && shippedPackages(handler).length === 0) {
        throw new Error(
          `${handler} loads shipped packages: list it in SHIPPED_BY_HANDLER (infra/bundling.ts)`,
        );
      }
      const packages = result.metafile ? packagesOf(result.metafile) : [];
      const includesAwsSdk = packages.some(
        (p) => p.name.startsWith('@aws-sdk/') || p.name.startsWith('@smithy/'),
      );
      const limitKb = handler === 'health' ? SIZE_TARGETS_KB.health : SIZE_TARGETS_KB.other;
      sizes.push({
        handler,
        minifiedBytes: code.length,
        gzipBytes: gzipSync(code).length,
        includesAwsSdk,
        assetBytes,
        packages,
        withinTarget: code.length <= limitKb * 1024 && (handler !== 'health' || !includesAwsSdk),
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
    'function    minified KB   gzip KB   AWS SDK   target    other files',
    ...sizes.map((s) => {
      const target = s.handler === 'health' ? SIZE_TARGETS_KB.health : SIZE_TARGETS_KB.other;
      return [
        s.handler.padEnd(11),
        kb(s.minifiedBytes).padStart(11),
        kb(s.gzipBytes).padStart(9),
        (s.includesAwsSdk ? 'yes' : 'no').padStart(9),
        `${s.withinTarget ? 'ok' : 'OVER'} ${target}`.padStart(9),
        s.assetBytes > 0 ? `   ${kb(s.assetBytes)} KB beside it` : '',
      ].join(' ');
    }),
  ];
  if (why) {
    for (const s of sizes) {
      lines.push('', `${s.handler}: largest contributors (minified KB)`);
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
