// Adds Biome's other-platform binaries to package-lock.json. The npm registry our machines
// reach serves only the Linux builds, so `npm install` here writes a lock file without the
// others, and `npm ci` then refuses it ("Missing: @biomejs/cli-darwin-arm64@ from lock
// file"). Entries with os/cpu set are skipped on other platforms, so no download is needed.
// Run after any `npm install` that rewrote the lock file: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const biome = lock.packages['node_modules/@biomejs/biome'];
let added = 0;
for (const [name, version] of Object.entries(biome?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  // @biomejs/cli-<os>-<cpu>[-musl]
  const [, os, cpu, musl] = /cli-([a-z0-9]+)-([a-z0-9]+)(-musl)?$/.exec(name) ?? [];
  if (!os || !cpu) throw new Error(`cannot read the platform of ${name}`);
  lock.packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    ...(musl ? { libc: ['musl'] } : {}),
    license: biome.license,
    optional: true,
    os: [os],
    engines: biome.engines,
  };
  added++;
}
const [root, ...rest] = Object.entries(lock.packages);
lock.packages = Object.fromEntries([
  root,
  ...rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
]);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} lock entries`);
