// Bundle sizes (built exactly as the CDK stack builds them) and the module import: the median
// time to import each bundled handler in a fresh Node process, timed inside that process. That is
// the part of a cold start the bundle decides (Node's own start, ~80 ms here, varies by more than
// the small imports take, and Lambda's init is not measured here), next to the floor of importing
// an empty ES module file the same way, measured in the same run. A function's code loads on its
// first event (functions/ say why): a row beside each shows the import with that code too, what
// the first event pays once, so that the cold start's figure does not hide it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWeb } from '../infra/web-build';
import { loadConfig } from '../lib/config';
import { createWebApp } from '../lib/site/web';
import { bundleFunctions, SIZE_TARGETS_KB } from '../scripts/bundle';
import { median, type Row, row } from './measure';

const IMPORT_RUNS = 25;
/** Issue 20: the page for people (HTML, script and style) weighs under 100 KB gzipped. */
const PAGE_TARGET_KB = 100;
/** Issues 14 and 38: the others under 60 ms; /health within 2 ms of an empty ES module's import. */
const IMPORT_TARGET_MS = { overEmptyModule: 2, other: 60 };

/**
 * Milliseconds a fresh Node process takes to import the module at `path`, and then the modules
 * at `then` (what its first event imports), timed inside it.
 */
function importMs(path: string, env: NodeJS.ProcessEnv, then: readonly string[] = []): number {
  const urls = JSON.stringify([path, ...then].map((file) => pathToFileURL(file).href));
  const script = `const t = performance.now(); for (const url of ${urls}) await import(url); console.log(performance.now() - t);`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`importing ${path} failed: ${result.stderr}`);
  return Number(result.stdout.trim());
}

/**
 * What a browser downloads to show the page at `/`: the HTML, the script and the style, each as
 * the service sends them gzip-compressed.
 */
export async function pageRows(): Promise<Row[]> {
  const app = await createWebApp(loadConfig({ TABLE_NAME: 'bench' }), buildWeb())();
  const gzipKb = (reply: { body?: string }) =>
    Buffer.from(reply.body ?? '', 'base64').length / 1024;
  const html = gzipKb(app.page('gzip'));
  const script = gzipKb(app.file('app.js', 'gzip'));
  const style = gzipKb(app.file('app.css', 'gzip'));
  return [
    row('page', 'page at / html gzip', html, 'KB'),
    row('page', 'page at / app.js gzip', script, 'KB'),
    row('page', 'page at / app.css gzip', style, 'KB'),
    row('page', 'page at / total gzip', html + script + style, 'KB', { below: PAGE_TARGET_KB }),
  ];
}

export async function bundleBenchmarks(log: (line: string) => void): Promise<Row[]> {
  const outdir = mkdtempSync(join(tmpdir(), 'tubesum-bench-'));
  try {
    log('bundling every function as the CDK stack does');
    const sizes = await bundleFunctions({ outdir });
    const rows: Row[] = [];
    for (const size of sizes) {
      const limit = size.name === 'health' ? SIZE_TARGETS_KB.health : SIZE_TARGETS_KB.other;
      rows.push(
        row('bundle', `${size.name} minified`, size.minifiedBytes / 1024, 'KB', {
          below: limit,
        }),
      );
      rows.push(row('bundle', `${size.name} gzip`, size.gzipBytes / 1024, 'KB'));
      if (size.lazyBytes > 0) {
        rows.push(row('bundle', `${size.name} on demand (import())`, size.lazyBytes / 1024, 'KB'));
      }
    }
    log('weighing the page for people');
    rows.push(...(await pageRows()));
    const health = sizes.find((s) => s.name === 'health');
    rows.push(
      row('bundle', 'health free of the AWS SDK', health?.includesAwsSdk ? 0 : 1, 'yes=1', {
        atLeast: 1,
      }),
    );

    log(`module import: importing each bundle ${IMPORT_RUNS} times in a fresh node`);
    // Settings the handlers read at import; nothing is called, so nothing is contacted.
    const env = { ...process.env, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1', NODE_OPTIONS: '' };
    // The floor of an import: an empty ES module file beside the bundles, imported the same way.
    const emptyModule = join(outdir, 'empty.mjs');
    writeFileSync(emptyModule, '');
    const floor: number[] = [];
    const samples = new Map<string, number[]>(sizes.map((s) => [s.name, []]));
    // What the first event adds: its function's code, imported then rather than at a cold start.
    const withFirstEvent = new Map<string, number[]>(sizes.map((s) => [s.name, []]));
    // Interleaved, so load on this shared machine hits every handler and the baseline alike.
    for (let i = 0; i < IMPORT_RUNS; i++) {
      floor.push(importMs(emptyModule, env));
      for (const size of sizes) {
        const entry = join(outdir, size.name, 'index.mjs');
        samples.get(size.name)?.push(importMs(entry, env));
        if (size.firstEventImports.length === 0) continue;
        const then = size.firstEventImports.map((file) => join(outdir, size.name, file));
        withFirstEvent.get(size.name)?.push(importMs(entry, env, then));
      }
    }
    const empty = median(floor);
    rows.push(row('module import', 'empty ES module (the floor) p50', empty, 'ms'));
    for (const [handler, times] of samples) {
      const limit =
        handler === 'health'
          ? Math.round((empty + IMPORT_TARGET_MS.overEmptyModule) * 10) / 10
          : IMPORT_TARGET_MS.other;
      rows.push(
        row('module import', `${handler} bundle p50`, median(times), 'ms', {
          below: limit,
        }),
      );
      const loaded = withFirstEvent.get(handler) ?? [];
      if (loaded.length > 0) {
        rows.push(
          row('module import', `${handler} with its first event's code p50`, median(loaded), 'ms'),
        );
      }
    }
    return rows;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
