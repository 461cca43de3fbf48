import { posix } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of the sources and the house's layering rule over it (docs/contributing.md, "Layers"). Pure
 * functions of file names and texts, so that the detection is tested on small graphs in memory
 * (import-graph.test.ts) as well as run over the repository (layers.test.ts). Paths are relative to the repository,
 * with `/`.
 */

/**
 * One import of a file: where it points as written (undefined for an `import()` of a computed path), its line, and
 * whether it is for types only (the JavaScript drops it).
 */
export interface ImportFound {
  specifier: string | undefined;
  line: number;
  typeOnly: boolean;
}

/** Every import, `export … from`, `import()` and `import('…')` type of a file, read by TypeScript's own parser. */
export function importsOf(fileName: string, text: string): ImportFound[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: ImportFound[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined, typeOnly: boolean): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: specifier !== undefined && ts.isStringLiteralLike(specifier) ? specifier.text : undefined, line, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      // `import { type A }` is not type-only: under verbatimModuleSyntax it stays as `import {} from`, which loads the module.
      add(node, node.moduleSpecifier, node.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      add(node, node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The source file a relative specifier names, as NodeNext resolves it: `.js` stands for `.ts`/`.tsx`, a folder for its `index`. */
export function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const target = posix.join(posix.dirname(from), specifier);
  const stem = target.replace(/\.(?:js|jsx)$/, '');
  const candidates = [target, `${stem}.ts`, `${stem}.tsx`, `${target}/index.ts`, `${target}/index.tsx`];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && files.has(candidate));
}

/** One arrow of the graph: a file, the line of its import, the file it imports, and how it names it. */
export interface Arrow {
  from: string;
  line: number;
  to: string;
  bySpecifier: string;
  typeOnly: boolean;
}

export interface ImportGraph {
  arrows: Arrow[];
  /** Imports that name no file of the graph although they should: a relative path to nothing, a computed `import()`, a package path that is no entry point. */
  unresolved: string[];
}

/**
 * The arrows between the given files. Relative specifiers resolve among the files; a package specifier listed in
 * `entries` (`core-client/settings`) resolves to that entry's source file, and another under a listed package name is
 * unresolved (it names no entry point). Any other package (`zod`, `node:fs`) is outside the graph.
 */
export function importGraph(texts: ReadonlyMap<string, string>, entries: ReadonlyMap<string, string>): ImportGraph {
  const files = new Set(texts.keys());
  const packages = new Set([...entries.keys()].map((specifier) => specifier.split('/')[0]));
  const graph: ImportGraph = { arrows: [], unresolved: [] };
  for (const [from, text] of texts) {
    for (const { specifier, line, typeOnly } of importsOf(from, text)) {
      const place = `${from}:${line}`;
      if (specifier === undefined) {
        graph.unresolved.push(`${place}: import() of a computed path, which no check can follow`);
        continue;
      }
      const isRelative = specifier.startsWith('./') || specifier.startsWith('../');
      if (!isRelative && !packages.has(specifier.split('/')[0])) continue;
      const to = isRelative ? resolveRelative(from, specifier, files) : entries.get(specifier);
      if (to === undefined) {
        graph.unresolved.push(
          isRelative ? `${place}: '${specifier}' names no source file` : `${place}: '${specifier}' is not one of the package's entry points`,
        );
        continue;
      }
      graph.arrows.push({ from, line, to, bySpecifier: specifier, typeOnly });
    }
  }
  return graph;
}

/**
 * The import circles among files: one for each group of files that reach each other (Tarjan's strongly connected
 * components), as the shortest circle through its first file, that file named again at the end.
 */
export function circlesOf(arrows: readonly Pick<Arrow, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of arrows) {
    const targets = next.get(from) ?? new Set<string>();
    targets.add(to);
    next.set(from, targets);
  }
  const nodes = [...new Set(arrows.flatMap(({ from, to }) => [from, to]))].sort();
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    lowest.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        lowest.set(node, Math.min(lowest.get(node) ?? 0, lowest.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowest.set(node, Math.min(lowest.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowest.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    const selfImport = next.get(node)?.has(node) ?? false;
    if (component.length > 1 || selfImport) components.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return components.map((component) => shortestCircle(component, next)).sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** The shortest way from a component's first file back to itself, through the component only. */
function shortestCircle(component: readonly string[], next: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const start = component[0] ?? '';
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head] ?? start;
    for (const target of [...(next.get(node) ?? [])].sort()) {
      if (target === start) {
        const path = [node];
        for (let step = cameFrom.get(node); step !== undefined; step = cameFrom.get(step)) path.unshift(step);
        return [...path, start];
      }
      if (inside.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}

/**
 * The rooms of one tree (a folder of the repository), bottom up: each floor a list of rooms (a folder, or a file at the
 * top of the tree) that may not import each other.
 */
export type Floors = readonly (readonly string[])[];

export interface Layout {
  /** Each tree by its folder, with its floors. */
  trees: Readonly<Record<string, Floors>>;
  /** The tree of the package that other trees import through its entry points only, and which of them may, and whether for types only. */
  package: { tree: string; users: Readonly<Record<string, 'values' | 'types'>> };
  /** Files that only the files listed beside each may import, whatever the floors allow, with why. */
  importedOnlyBy?: Readonly<Record<string, { files: readonly string[]; why: string }>>;
}

export interface Place {
  tree: string;
  room: string;
  floor: number;
}

/** The tree, room and floor (counted from 1 at the bottom) of a file; undefined for a file in no listed room. */
export function placeOf(file: string, layout: Layout): Place | undefined {
  const tree = Object.keys(layout.trees)
    .filter((folder) => file.startsWith(`${folder}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (tree === undefined) return undefined;
  const inTree = file.slice(tree.length + 1);
  const floors = layout.trees[tree] ?? [];
  for (const [floor, rooms] of floors.entries()) {
    const room = rooms.find((name) => inTree === name || inTree.startsWith(`${name}/`));
    if (room !== undefined) return { tree, room, floor: floor + 1 };
  }
  return undefined;
}

/** The files in no listed room: a new folder or top file is placed in the list deliberately. */
export function filesInNoRoom(files: Iterable<string>, layout: Layout): string[] {
  return [...files].filter((file) => placeOf(file, layout) === undefined).map((file) => `${file} is in no listed room`);
}

/** The listed rooms that hold no file: a room moved or gone is taken out of the list. */
export function roomsWithNoFile(files: Iterable<string>, layout: Layout): string[] {
  const used = new Set([...files].map((file) => placeOf(file, layout)).map((place) => place && `${place.tree}/${place.room}`));
  return Object.entries(layout.trees).flatMap(([tree, floors]) =>
    floors.flat().flatMap((room) => (used.has(`${tree}/${room}`) ? [] : [`${tree}/${room} is listed but holds no file`])),
  );
}

/** Why an arrow breaks the layering, or undefined when it keeps it. */
export function breachOf(arrow: Arrow, layout: Layout): string | undefined {
  const from = placeOf(arrow.from, layout);
  const to = placeOf(arrow.to, layout);
  const where = `${arrow.from}:${arrow.line} imports ${arrow.to}`;
  if (from === undefined || to === undefined) return undefined;
  const only = layout.importedOnlyBy?.[arrow.to];
  if (only !== undefined && !only.files.includes(arrow.from)) return `${where}: only ${only.files.join(', ')} may import it (${only.why})`;
  if (from.tree === to.tree) {
    if (from.room === to.room || to.floor < from.floor) return undefined;
    const height = to.floor === from.floor ? 'on the same floor' : 'above it';
    return `${where}: room ${from.room} (floor ${from.floor} of ${from.tree}) imports room ${to.room} (floor ${to.floor}), ${height}`;
  }
  const use = to.tree === layout.package.tree ? layout.package.users[from.tree] : undefined;
  if (use === undefined) return `${where}: ${from.tree} may not import ${to.tree}`;
  if (arrow.bySpecifier.startsWith('.')) return `${where}: ${from.tree} imports ${to.tree} by a relative path, not through the package's entry points`;
  if (use === 'types' && !arrow.typeOnly) return `${where}: ${from.tree} takes only types from ${to.tree} (\`import type\`)`;
  return undefined;
}
