// The README is a front page and docs/ the manual: every variable the service reads, every
// route and every deployment setting is part of its interface and must be documented there,
// and every link between the pages (and to the code) must lead somewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTEXT } from '../../infra/settings';
import { CONFIG_VARIABLES } from '../../lib/config';
import { buildOpenApiDocument } from '../../lib/openapi';
import { routes } from '../../lib/routes/index';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const manual = pages
  .filter((page) => page.startsWith('docs/'))
  .map(read)
  .join('\n');

/** The text outside fenced code blocks (where `# comment` is no heading and `[x](y)` no link). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, `-` for spaces. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading = ''] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Every relative link target of a page, e.g. `models.md#the-offline-summarizer` or `#errors`. */
function links(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target = '']) => target)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** Why a link from `page` does not lead anywhere, or undefined when it does. */
function broken(page: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? page : relative(root, join(root, dirname(page), path));
  if (!existsSync(join(root, file))) return `${page}: ${target} (no file ${file})`;
  if (anchor === undefined || !file.endsWith('.md')) return undefined;
  return anchors(read(file)).has(anchor) ? undefined : `${page}: ${target} (no heading #${anchor})`;
}

describe('the README', () => {
  it('is a front page of at most 300 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links to every page of the manual', () => {
    const linked = new Set(links(read('README.md')).map((target) => target.split('#')[0]));
    const unlinked = pages.filter((page) => page !== 'README.md' && !linked.has(page));

    expect(unlinked).toEqual([]);
  });
});

describe('the manual', () => {
  it('documents every variable of lib/config.ts in docs/configuration.md', () => {
    const configuration = read('docs/configuration.md');
    const missing = CONFIG_VARIABLES.filter((name) => !configuration.includes(`\`${name}\``));

    expect(missing).toEqual([]);
  });

  it('names every route of the route table, and docs/api.md its operationId', () => {
    const api = read('docs/api.md');
    const missing = Object.entries(routes).flatMap(([operationId, route]) => [
      ...(api.includes(`\`${operationId}\``) ? [] : [`operationId ${operationId}`]),
      ...(manual.includes(route.path) ? [] : [`path ${route.path}`]),
    ]);

    expect(missing).toEqual([]);
  });

  it('explains every problem type the OpenAPI document names', () => {
    const document = JSON.stringify(buildOpenApiDocument({ models: ['extractive'] }));
    const types = new Set(
      [...document.matchAll(/urn:tubesum:problem:([a-z0-9-]+)/g)].map(([, type]) => type),
    );
    const missing = [...types].filter((type) => !manual.includes(`\`${type}\``));

    expect(types.size).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it('lists every CDK context key in the settings table of docs/aws.md', () => {
    const aws = read('docs/aws.md');
    const keys = aws
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) =>
        [...(line.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map(([, key]) => key),
      );
    const missing = Object.values(CONTEXT).filter((key) => !keys.includes(key));

    expect(missing).toEqual([]);
  });
});

describe('the layout page', () => {
  /** Every folder of source under `dir`, recursively, as paths from the repository's root. */
  function folders(dir: string): string[] {
    return readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => [`${dir}/${entry.name}`, ...folders(`${dir}/${entry.name}`)]);
  }

  it('names every folder of lib/, infra/ and web/ (a folder moved is a page to update)', () => {
    const layout = read('docs/layout.md');
    const source = ['functions', 'lib', 'infra', 'web', 'test', 'bench', 'scripts'];
    const missing = [...source, ...['lib', 'infra', 'web'].flatMap(folders)].filter(
      (folder) =>
        !layout.includes(`${folder}/`) && !layout.includes(` ${folder.split('/').pop()}/`),
    );

    expect(missing).toEqual([]);
  });
});

describe('links in README.md and docs/*.md', () => {
  it('lead to files and headings that exist', () => {
    const dead = pages.flatMap((page) =>
      links(read(page)).flatMap((target) => broken(page, target) ?? []),
    );

    expect(dead).toEqual([]);
  });

  it('name code paths that exist', () => {
    // Written by `npm run bench`, not kept in the repository.
    const generated = new Set(['bench/results.json']);
    const dead = pages.flatMap((page) =>
      [
        ...prose(read(page)).matchAll(
          /`((?:lib|functions|infra|web|bench|scripts|test)\/[\w./-]+)`/g,
        ),
      ]
        .map(([, path = '']) => path)
        .filter((path) => !generated.has(path) && !existsSync(join(root, path)))
        .map((path) => `${page}: ${path}`),
    );

    expect(dead).toEqual([]);
  });

  it('are found by the checks above, which can fail', () => {
    const page = '# Title\n\n## A `code` heading: twice\n\n## A `code` heading: twice\n';

    expect([...anchors(page)]).toEqual(['title', 'a-code-heading-twice', 'a-code-heading-twice-1']);
    expect(
      links('[a](x.md#y) `[b](z)` [c](https://e.example) [d](#e)\n```\n[f](g)\n```\n'),
    ).toEqual(['x.md#y', '#e']);
    expect(broken('README.md', 'docs/no-such-page.md')).toMatch(/no file/);
    expect(broken('README.md', 'docs/api.md#no-such-heading')).toMatch(/no heading/);
    expect(broken('docs/api.md', 'models.md#the-offline-summarizer')).toBeUndefined();
  });
});
