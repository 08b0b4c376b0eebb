// A procedure a reader can hold (issue 37): no function in the shipped code longer than 80
// lines (a factory that closes over seven operations is seven small functions and a short
// factory), and every file of functions/ under 60 lines (a Lambda's file only wires things up;
// its logic lives in lib/). Measured with TypeScript's own parser, so a long arrow function in
// an object literal counts as much as a declaration.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const FOLDERS = ['lib', 'functions', 'web', 'infra'];
const MAX_FUNCTION_LINES = 80;
const MAX_FUNCTION_FILE_LINES = 60;

/**
 * Functions still over the limit, as "file name": each is to be split into the operations it
 * holds, and leaves this list when it is (a listed one that is no longer long fails the test).
 */
const KNOWN_LONG = new Set<string>([]);

/** Every .ts and .tsx file under a folder (declaration files left out). */
function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file))
    .sort();
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** What a reader calls a function: its own name, or the name it is given. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name
  ) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

const lineOf = (source: ts.SourceFile, position: number) =>
  source.getLineAndCharacterOfPosition(position).line + 1;

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

const described = ({ file, line, name, lines }: LongFunction) =>
  `${file}:${line} ${name} (${lines} lines)`;

/** Each function of a file longer than the limit. */
function longFunctionsOf(file: string, text: string, limit: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body) {
      const first = lineOf(source, node.getStart(source));
      const lines = lineOf(source, node.getEnd()) - first + 1;
      if (lines > limit) found.push({ file, line: first, name: nameOf(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A file's lines, as an editor numbers them (a final newline ends the last one). */
const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('procedures', () => {
  it(`keeps every function in ${FOLDERS.join(', ')} within ${MAX_FUNCTION_LINES} lines`, () => {
    const long = FOLDERS.flatMap(sourcesUnder).flatMap((file) =>
      longFunctionsOf(file, readFileSync(join(ROOT, file), 'utf8'), MAX_FUNCTION_LINES),
    );
    const known = (found: LongFunction) => KNOWN_LONG.has(`${found.file} ${found.name}`);

    expect(long.filter((found) => !known(found)).map(described)).toEqual([]);
    expect(
      [...KNOWN_LONG].filter(
        (entry) => !long.some((found) => `${found.file} ${found.name}` === entry),
      ),
    ).toEqual([]);
  });

  it(`keeps every file in functions/ under ${MAX_FUNCTION_FILE_LINES} lines`, () => {
    const long = sourcesUnder('functions')
      .map((file) => ({ file, lines: linesOf(readFileSync(join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines >= MAX_FUNCTION_FILE_LINES);

    expect(long.map(({ file, lines }) => `${file} (${lines} lines)`)).toEqual([]);
  });

  it('counts arrow functions, methods and function expressions as functions', () => {
    const body = Array.from({ length: 80 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const text = [
      `const arrow = () => {\n${body}\n};`,
      `const object = { method() {\n${body}\n} };`,
      `const expression = function () {\n${body}\n};`,
      `function short() {\n  return 1;\n}`,
    ].join('\n');

    const long = longFunctionsOf('example.ts', text, MAX_FUNCTION_LINES).map(described);

    expect(long).toEqual([
      'example.ts:1 arrow (82 lines)',
      'example.ts:83 method (82 lines)',
      'example.ts:165 expression (82 lines)',
    ]);
  });
});
