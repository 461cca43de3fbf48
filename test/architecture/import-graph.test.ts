import { describe, expect, it } from 'vitest';
import { breachOf, circlesOf, filesInNoRoom, importGraph, importsOf, resolveRelative, roomsWithNoFile, type Arrow, type Layout } from './import-graph.js';

/** The detection layers.test.ts relies on, on small graphs in memory: each rule is seen to catch what it is for. */

const layout: Layout = {
  trees: { src: [['low.ts'], ['mid', 'side'], ['top.ts']], app: [['main.ts']], ops: [['stack.ts']] },
  package: { tree: 'src', users: { app: 'values', ops: 'types' } },
};

function arrow(from: string, to: string, bySpecifier = './x.js', typeOnly = false): Arrow {
  return { from, line: 1, to, bySpecifier, typeOnly };
}

describe('importsOf', () => {
  it('takes every import, export-from, import() and import type, with its line, and tells the ones the JavaScript drops', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "export { d } from './d.js';",
      "export type { E } from './e.js';",
      "export * from './f.js';",
      "import './g.js';",
      'export async function load(name: string): Promise<import("./h.js").H> {',
      "  await import('./i.js');",
      '  return import(`./${name}.js`);',
      '}',
    ].join('\n');
    expect(importsOf('src/x.ts', text)).toEqual([
      { specifier: './a.js', line: 1, typeOnly: false },
      { specifier: './b.js', line: 2, typeOnly: true },
      { specifier: './c.js', line: 3, typeOnly: false },
      { specifier: './d.js', line: 4, typeOnly: false },
      { specifier: './e.js', line: 5, typeOnly: true },
      { specifier: './f.js', line: 6, typeOnly: false },
      { specifier: './g.js', line: 7, typeOnly: false },
      { specifier: './h.js', line: 8, typeOnly: true },
      { specifier: './i.js', line: 9, typeOnly: false },
      { specifier: undefined, line: 10, typeOnly: false },
    ]);
  });

  it('reads JSX in a .tsx file', () => {
    expect(importsOf('src/view.tsx', "import { Box } from './box.js';\nexport const View = () => <Box />;")).toEqual([
      { specifier: './box.js', line: 1, typeOnly: false },
    ]);
  });
});

describe('resolveRelative', () => {
  const files = new Set(['src/a.ts', 'src/view.tsx', 'src/dir/index.ts', 'src/dir/b.ts']);

  it('reads .js as .ts or .tsx and a folder as its index, as NodeNext does', () => {
    expect(resolveRelative('src/dir/b.ts', '../a.js', files)).toBe('src/a.ts');
    expect(resolveRelative('src/a.ts', './view.js', files)).toBe('src/view.tsx');
    expect(resolveRelative('src/a.ts', './dir', files)).toBe('src/dir/index.ts');
    expect(resolveRelative('src/a.ts', './dir/index.js', files)).toBe('src/dir/index.ts');
  });

  it('finds nothing for a path to no source file', () => {
    expect(resolveRelative('src/a.ts', './missing.js', files)).toBeUndefined();
    expect(resolveRelative('src/a.ts', './data.json', files)).toBeUndefined();
  });
});

describe('circlesOf', () => {
  it('finds none in a graph without a circle', () => {
    expect(circlesOf([arrow('a', 'b'), arrow('b', 'c'), arrow('a', 'c')])).toEqual([]);
  });

  it('names the files of each circle in order, the first again at the end', () => {
    const arrows = [arrow('b', 'c'), arrow('c', 'a'), arrow('a', 'b'), arrow('c', 'd'), arrow('x', 'y'), arrow('y', 'x'), arrow('s', 's')];
    expect(circlesOf(arrows)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['s', 's'],
      ['x', 'y', 'x'],
    ]);
  });

  it('names the shortest circle through the first file when several files reach each other', () => {
    const arrows = [arrow('a', 'c'), arrow('c', 'd'), arrow('d', 'a'), arrow('a', 'e'), arrow('e', 'a')];
    expect(circlesOf(arrows)).toEqual([['a', 'e', 'a']]);
  });
});

describe('breachOf', () => {
  it('lets a room import rooms below it, and files of its own room', () => {
    expect(breachOf(arrow('src/mid/x.ts', 'src/low.ts'), layout)).toBeUndefined();
    expect(breachOf(arrow('src/top.ts', 'src/side/y.ts'), layout)).toBeUndefined();
    expect(breachOf(arrow('src/mid/x.ts', 'src/mid/deeper/z.ts'), layout)).toBeUndefined();
  });

  it('refuses an import up or across a floor, naming the file, the line and both rooms', () => {
    expect(breachOf({ ...arrow('src/low.ts', 'src/mid/x.ts'), line: 7 }, layout)).toBe(
      'src/low.ts:7 imports src/mid/x.ts: room low.ts (floor 1 of src) imports room mid (floor 2), above it',
    );
    expect(breachOf(arrow('src/mid/x.ts', 'src/side/y.ts'), layout)).toBe(
      'src/mid/x.ts:1 imports src/side/y.ts: room mid (floor 2 of src) imports room side (floor 2), on the same floor',
    );
  });

  it('lets the package be imported only by its name, by its users, and for types only where that is the rule', () => {
    expect(breachOf(arrow('app/main.ts', 'src/top.ts', 'pkg'), layout)).toBeUndefined();
    expect(breachOf(arrow('ops/stack.ts', 'src/top.ts', 'pkg', true), layout)).toBeUndefined();
    expect(breachOf(arrow('app/main.ts', 'src/top.ts', '../src/top.js'), layout)).toBe(
      "app/main.ts:1 imports src/top.ts: app imports src by a relative path, not through the package's entry points",
    );
    expect(breachOf(arrow('ops/stack.ts', 'src/top.ts', 'pkg'), layout)).toBe(
      'ops/stack.ts:1 imports src/top.ts: ops takes only types from src (`import type`)',
    );
    expect(breachOf(arrow('src/top.ts', 'app/main.ts', '../app/main.js'), layout)).toBe('src/top.ts:1 imports app/main.ts: src may not import app');
  });

  it('lets a file listed as imported only by some files be imported by those alone, even from a floor above', () => {
    const guarded: Layout = { ...layout, importedOnlyBy: { 'src/low.ts': { files: ['src/top.ts'], why: 'data for the top' } } };
    expect(breachOf(arrow('src/top.ts', 'src/low.ts'), guarded)).toBeUndefined();
    expect(breachOf(arrow('src/mid/x.ts', 'src/low.ts'), guarded)).toBe('src/mid/x.ts:1 imports src/low.ts: only src/top.ts may import it (data for the top)');
  });
});

describe('rooms and files', () => {
  it('names a file in no listed room, and a listed room with no file', () => {
    const files = ['src/low.ts', 'src/mid/x.ts', 'src/new/y.ts', 'src/top.ts', 'app/main.ts', 'ops/stack.ts'];
    expect(filesInNoRoom(files, layout)).toEqual(['src/new/y.ts is in no listed room']);
    expect(roomsWithNoFile(files, layout)).toEqual(['src/side is listed but holds no file']);
  });
});

describe('importGraph', () => {
  it('follows relative paths and the entry points of the package, and names what it cannot follow', () => {
    const texts = new Map([
      ['src/low.ts', "import { z } from 'zod';\nimport { mid } from './mid/index.js';"],
      ['src/mid/index.ts', "import { low } from '../low.js';\nimport { gone } from './gone.js';"],
      ['src/top.ts', "export * from './mid/index.js';"],
      ['app/main.ts', "import { top } from 'pkg';\nimport { deep } from 'pkg/mid/index.js';\nawait import(`./${name}.js`);"],
    ]);
    const graph = importGraph(texts, new Map([['pkg', 'src/top.ts']]));
    expect(graph.arrows.map(({ from, line, to }) => `${from}:${line} → ${to}`)).toEqual([
      'src/low.ts:2 → src/mid/index.ts',
      'src/mid/index.ts:1 → src/low.ts',
      'src/top.ts:1 → src/mid/index.ts',
      'app/main.ts:1 → src/top.ts',
    ]);
    expect(graph.unresolved).toEqual([
      "src/mid/index.ts:2: './gone.js' names no source file",
      "app/main.ts:2: 'pkg/mid/index.js' is not one of the package's entry points",
      'app/main.ts:3: import() of a computed path, which no check can follow',
    ]);
    expect(circlesOf(graph.arrows)).toEqual([['src/low.ts', 'src/mid/index.ts', 'src/low.ts']]);
    expect(graph.arrows.map((found) => breachOf(found, layout)).filter((breach) => breach !== undefined)).toEqual([
      'src/low.ts:2 imports src/mid/index.ts: room low.ts (floor 1 of src) imports room mid (floor 2), above it',
    ]);
  });
});
