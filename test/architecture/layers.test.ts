import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { breachOf, circlesOf, filesInNoRoom, importGraph, roomsWithNoFile } from './import-graph.js';
import { LAYOUT } from './rooms.js';

/**
 * The layering rule, checked rather than remembered (issue 41; docs/contributing.md, "Layers"): no files import each
 * other in a circle, no room imports a room above it or beside it, every file is in a listed room (rooms.ts), and
 * tui and infra reach core-client only through its package's entry points, infra for types only.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** core-client's entry points as a specifier names them (`core-client/settings`), each with its source file. */
function coreClientEntries(): Map<string, string> {
  const manifest = z
    .object({ name: z.string(), exports: z.record(z.string(), z.union([z.string(), z.object({ source: z.string() })])) })
    .parse(JSON.parse(readFileSync(join(ROOT, 'core-client/package.json'), 'utf8')));
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    entries.set(`${manifest.name}${subpath.slice(1)}`, `core-client/${target.source.slice(2)}`);
  }
  return entries;
}

/** Every source file of the trees, the graph of their imports, and the arrows that break the order. */
function readLayers() {
  const texts = new Map(
    Object.keys(LAYOUT.trees)
      .flatMap((tree) => sourceFiles(join(ROOT, tree)))
      .map((path) => [relative(ROOT, path).split(sep).join('/'), readFileSync(path, 'utf8')] as const),
  );
  const graph = importGraph(texts, coreClientEntries());
  const breaches = graph.arrows.flatMap((arrow) => {
    const breach = breachOf(arrow, LAYOUT);
    return breach === undefined ? [] : [{ arrow, breach }];
  });
  return { files: [...texts.keys()], graph, breaches };
}

describe('layers: a room imports only rooms below it, and no files import each other in a circle', () => {
  // Read in a hook rather than at import, so that the reading and parsing count in the suite's reported time.
  let layers: ReturnType<typeof readLayers>;
  beforeAll(() => {
    layers = readLayers();
  });

  it('finds no import circle among the files of core-client, tui and infra', () => {
    expect(circlesOf(layers.graph.arrows).map((circle) => `import circle: ${circle.join(' → ')}`)).toEqual([]);
  });

  it('finds no room importing a room above it or on its floor, and no way into core-client but its entry points', () => {
    expect(layers.breaches.map(({ breach }) => breach)).toEqual([]);
  });

  it('places every file in a listed room, and every listed room holds a file', () => {
    expect([...filesInNoRoom(layers.files, LAYOUT), ...roomsWithNoFile(layers.files, LAYOUT)]).toEqual([]);
  });

  it('follows every import to a source file or an entry point of core-client', () => {
    expect(layers.graph.unresolved).toEqual([]);
  });
});
