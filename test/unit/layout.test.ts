// docs/layout.md's table of areas, checked against the code: every import from one area of lib/
// into another is one its "may import" column allows (type-only and dynamic imports count), the
// "imported by" column is that column read backwards, and no imports go round in a cycle between
// areas. Imports are read with the TypeScript compiler's pre-processor, as tsc finds them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const LIB = join(ROOT, 'lib');

/**
 * Imports that still close a cycle between areas, each with what breaks it. The test fails when
 * one is gone, so that this list only shrinks.
 */
const CYCLE_EDGES_LEFT: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const folders = new Set(readdirSync(LIB).filter((name) => statSync(join(LIB, name)).isDirectory()));

/** The area of a file of lib/: its folder; a top-level file, its namesake folder's or the kernel. */
function areaOf(file: string): string {
  const [first = '', ...rest] = relative(LIB, file).split(sep);
  if (rest.length > 0) return first;
  const base = first.replace(/\.tsx?$/, '');
  return folders.has(base) ? base : 'kernel';
}

/** The file a relative specifier names, as the bundler resolves it; undefined for a package. */
function resolved(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const bare = resolve(dirname(from), specifier).replace(/\.js$/, '');
  return [`${bare}.ts`, `${bare}.tsx`, join(bare, 'index.ts')].find((path) => existsSync(path));
}

interface Import {
  from: string;
  to: string;
}

/** Every import of a lib/ file by a lib/ file, type-only, re-exports and `import()` included. */
function libImports(): Import[] {
  return sourceFiles(LIB).flatMap((from) =>
    ts
      .preProcessFile(readFileSync(from, 'utf8'), true, true)
      .importedFiles.map(({ fileName }) => resolved(from, fileName))
      .filter((to): to is string => to !== undefined)
      .map((to) => ({ from, to })),
  );
}

interface AreaRow {
  mayImport: string[];
  importedBy: string[];
}

/** The names in backticks of a cell; none for a dash. */
const namesIn = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');

/** docs/layout.md's table of areas, by area (`lib/x/` is `x`). */
function areaTable(): Map<string, AreaRow> {
  const page = readFileSync(join(ROOT, 'docs/layout.md'), 'utf8');
  const section = page.split('\n## ').find((part) => part.startsWith('Areas'));
  if (section === undefined) throw new Error('docs/layout.md has no "Areas" section');
  const rows = new Map<string, AreaRow>();
  for (const line of section.split('\n')) {
    // | area | owns | may import | imported by |
    const [, name = '', , mayImport = '', importedBy = '', ...rest] = line
      .split('|')
      .map((cell) => cell.trim());
    if (rest.length !== 1 || !name.startsWith('`')) continue;
    const area = (namesIn(name)[0] ?? '').replace(/^lib\//, '').replace(/\/$/, '');
    rows.set(area, { mayImport: namesIn(mayImport), importedBy: namesIn(importedBy) });
  }
  return rows;
}

/** The imports between areas, as `a -> b` with the files that make each. */
function areaEdges(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const { from, to } of libImports()) {
    const [a, b] = [areaOf(from), areaOf(to)];
    // Every area may import the kernel.
    if (a === b || b === 'kernel') continue;
    const key = `${a} -> ${b}`;
    edges.set(key, [...(edges.get(key) ?? []), `${relative(ROOT, from)} -> ${relative(ROOT, to)}`]);
  }
  return edges;
}

/** The areas that import one another in a cycle (Tarjan's strongly connected components). */
function cycles(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [a = '', b = ''] = edge.split(' -> ');
    next.set(a, [...(next.get(a) ?? []), b]);
    if (!next.has(b)) next.set(b, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the areas of lib/ (docs/layout.md)', () => {
  const table = areaTable();
  const edges = areaEdges();

  it('lists every folder of lib/ and the kernel, and nothing else', () => {
    expect([...table.keys()].sort()).toEqual(['kernel', ...folders].sort());
  });

  it('allows every import between areas that the code makes', () => {
    const unlisted = [...edges]
      .filter(([edge]) => {
        const [a = '', b = ''] = edge.split(' -> ');
        return !table.get(a)?.mayImport.includes(b);
      })
      .map(([edge, files]) => `${edge}: ${files.join(', ')}`);
    expect(unlisted).toEqual([]);
  });

  it('names as "imported by" exactly the areas whose "may import" names it', () => {
    for (const [area, row] of table) {
      const importers = [...table].filter(([, other]) => other.mayImport.includes(area));
      expect(row.importedBy.sort(), area).toEqual(importers.map(([name]) => name).sort());
    }
  });

  it('finds no cycle between areas but the imports still to be broken', () => {
    const kept = [...edges.keys()].filter((edge) => !(edge in CYCLE_EDGES_LEFT));
    expect(cycles(kept)).toEqual([]);
  });

  it('allows no cycle between areas, so that no import the table allows can close one', () => {
    const allowed = [...table].flatMap(([area, row]) =>
      row.mayImport.map((to) => `${area} -> ${to}`),
    );
    expect(cycles(allowed)).toEqual([]);
  });

  it('allows only imports the code makes, so that a stale allowance cannot hide a cycle later', () => {
    const allowed = [...table].flatMap(([area, row]) =>
      row.mayImport.map((to) => `${area} -> ${to}`),
    );
    expect(allowed.filter((edge) => !edges.has(edge))).toEqual([]);
  });

  it('still finds each import left to break (remove it from the list once it is gone)', () => {
    expect(Object.keys(CYCLE_EDGES_LEFT).filter((edge) => !edges.has(edge))).toEqual([]);
  });

  it('finds the cycle an import back would make', () => {
    expect(cycles(['models -> store', 'store -> aws', 'aws -> models'])).toEqual([
      ['aws', 'models', 'store'],
    ]);
  });

  it('keeps lib/ free of functions/, infra/, web/ and test/', () => {
    const above = libImports().filter(({ to }) => !to.startsWith(LIB + sep));
    expect(above.map(({ from, to }) => `${relative(ROOT, from)} -> ${relative(ROOT, to)}`)).toEqual(
      [],
    );
  });
});
