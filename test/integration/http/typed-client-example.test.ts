// The typed-client example of docs/api.md, run as written: its shell steps in a folder of their
// own (npm's install lines are checked against this repository's pins instead of fetched), its
// client.ts type-checked by tsc and run by tsx against a local host. The only edits are the
// host's address, the one `npm start` listens on in the example, and `npx <tool>` run from this
// repository's node_modules/.bin (what npx finds after the install lines).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SummarizeEnv, startSummarizeEnv } from '../../support/summarize-env';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const EXAMPLE_ORIGIN = 'http://127.0.0.1:3000';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const pinned: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };

/** The fenced blocks of the section "A typed client", in order, with their language. */
function exampleBlocks(): { lang: string; code: string }[] {
  const manual = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  const section = manual.split('\n## A typed client\n')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({
    lang: match[1] as string,
    code: match[2] as string,
  }));
}

let env: SummarizeEnv;
let workdir: string;

beforeAll(async () => {
  env = await startSummarizeEnv();
  // Inside the repository, so client.ts resolves openapi-fetch from its node_modules.
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  workdir = mkdtempSync(join(ROOT, 'test-results', 'typed-client-'));
});
afterAll(async () => {
  await env?.close();
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

/** Runs one shell line of the example in the work folder, with the local host's address. */
async function runLine(line: string): Promise<string> {
  const command = line
    .replaceAll(EXAMPLE_ORIGIN, env.host.url.replace(/\/$/, ''))
    .replace(/^npx /, '');
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', command], {
    cwd: workdir,
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` },
  }).catch((error: { stdout?: string; stderr?: string }) => {
    // tsc reports its type errors on stdout: both say what failed.
    throw new Error(`${command} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  });
  return stdout;
}

describe('the typed-client example of docs/api.md', () => {
  it('installs what this repository pins, generates the types, type-checks and runs', async () => {
    const blocks = exampleBlocks();
    expect(blocks.map((block) => block.lang)).toEqual(['sh', 'ts', 'sh']);
    const [setup, program, run] = blocks as [
      (typeof blocks)[0],
      (typeof blocks)[0],
      (typeof blocks)[0],
    ];
    // The account the example logs in with, as the README's curl example registers it.
    const registered = await env.host.request('POST', '/register', {
      json: {
        username: 'alice',
        email: 'alice@example.com',
        password: 'correct horse battery staple',
      },
    });
    expect(registered.status).toBe(201);

    for (const line of setup.code.trim().split('\n')) {
      if (line.startsWith('npm install ')) {
        for (const spec of line.split(' ').filter((word) => /^[@\w].*@\d/.test(word))) {
          const at = spec.lastIndexOf('@');
          expect(`${spec.slice(0, at)}@${pinned[spec.slice(0, at)]}`, line).toBe(spec);
        }
        continue;
      }
      await runLine(line);
    }
    writeFileSync(
      join(workdir, 'client.ts'),
      program.code.replaceAll(EXAMPLE_ORIGIN, env.host.url.replace(/\/$/, '')),
    );
    const [typeCheck, start] = run.code.trim().split('\n') as [string, string];
    await runLine(typeCheck);
    const printed = await runLine(start);

    // The recorded video's offline summary (the fake YouTube serves its captions).
    expect(printed).toMatch(/^Hey, this is just a test/);
  }, 300_000);
});
