// The Lambda bundles themselves, built exactly as the stack builds them: each one must load in
// a fresh Node process (a bundle can break where the sources run fine, e.g. two imports of one
// name), /health must stay tiny and SDK-free, and shipped packages must sit beside /summarize.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, extraFileCommands, PROJECT_ROOT } from '../../infra/bundling';
import { SHIPPED_PACKAGES } from '../../lib/shipped';
import { type BundleSize, bundleFunctions } from '../../scripts/bundle';

// Outside the repository, so that nothing resolves from the project's node_modules.
const outdir = mkdtempSync(join(tmpdir(), 'tubesum-bundles-test-'));
let sizes: BundleSize[];

beforeAll(async () => {
  sizes = await bundleFunctions({ outdir });
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('the Lambda bundles', () => {
  it('each load in a fresh Node process, as Lambda imports them', () => {
    for (const { handler } of sizes) {
      const url = pathToFileURL(join(outdir, handler, 'index.mjs')).href;
      const result = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(url)}); if (typeof m.handler !== 'function') process.exit(3);`,
        ],
        {
          cwd: tmpdir(),
          env: { PATH: process.env.PATH, TABLE_NAME: 'bundle-test', AWS_REGION: 'us-east-1' },
          encoding: 'utf8',
        },
      );

      expect(result.stderr, handler).toBe('');
      expect(result.status, handler).toBe(0);
    }
  });

  it('keeps /health under 5 KB and free of the AWS SDK', () => {
    const health = sizes.find((size) => size.handler === 'health');

    expect(health?.minifiedBytes).toBeLessThan(5 * 1024);
    expect(health?.includesAwsSdk).toBe(false);
  });

  it('puts the packages /summarize loads at run time beside its bundle, not inside it', () => {
    const summarize = sizes.find((size) => size.handler === 'summarize');

    for (const name of SHIPPED_PACKAGES) {
      expect(
        existsSync(join(outdir, 'summarize', 'node_modules', name, 'package.json')),
        name,
      ).toBe(true);
      expect(summarize?.packages.map((p) => p.name)).not.toContain(name);
    }
  });
});

it('runs code that loads the shipped packages from beside a bundle built like /summarize', async () => {
  const dir = join(outdir, 'shipped-check');
  await build({
    ...esbuildOptions('summarize', outdir),
    entryPoints: [join(PROJECT_ROOT, 'test/infra/fixtures/shipped-entry.ts')],
    outfile: join(dir, 'index.mjs'),
  });
  for (const command of extraFileCommands('summarize')(PROJECT_ROOT, dir))
    execFileSync('sh', ['-c', command]);

  const result = spawnSync(process.execPath, [join(dir, 'index.mjs')], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });

  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual({ words: expect.any(Number), proxyAgent: 'function' });
  expect(JSON.parse(result.stdout).words).toBeGreaterThan(40);
});
