import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The house's one problem type, checked rather than remembered (issue 41): every class in core-client that is an
 * Error is a `Problem` (a stable code, the setting as data, an exit code; docs/contributing.md, "How core-client
 * refuses"), but for the control-flow signals docs/contributing.md names, which never reach a face.
 */
const SOURCES = fileURLToPath(new URL('../../core-client/src', import.meta.url));
const CONTRIBUTING = fileURLToPath(new URL('../../docs/contributing.md', import.meta.url));
/** The control-flow signals: each must stay named in docs/contributing.md, where it says why. */
const CONTROL_FLOW_SIGNALS = new Set(['JsonScanError', 'StoppedWaiting', 'KeysUnavailable', 'RowFieldProblem']);

interface ClassFound {
  name: string;
  base: string;
  file: string;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every class declared in these files with the class it extends (its name as written, type arguments aside). */
function classesOf(files: readonly { path: string; text: string }[]): ClassFound[] {
  const found: ClassFound[] = [];
  for (const { path, text } of files) {
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.heritageClauses !== undefined) {
        for (const clause of node.heritageClauses) {
          if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
          for (const type of clause.types) found.push({ name: node.name?.text ?? '(anonymous)', base: type.expression.getText(source), file: path });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The classes that are Errors but neither a Problem nor a named signal, as `Name (file)`. */
function errorsOutsideProblem(classes: readonly ClassFound[]): string[] {
  const baseOf = new Map(classes.map((found) => [found.name, found.base]));
  const rootOf = (name: string, seen = new Set<string>()): string => {
    const base = baseOf.get(name);
    if (base === undefined || seen.has(name)) return name;
    seen.add(name);
    return rootOf(base, seen);
  };
  const isProblem = (name: string, seen = new Set<string>()): boolean => {
    if (name === 'Problem') return true;
    const base = baseOf.get(name);
    if (base === undefined || seen.has(name)) return false;
    seen.add(name);
    return isProblem(base, seen);
  };
  return classes
    .filter((found) => found.name !== 'Problem' && rootOf(found.name) === 'Error' && !isProblem(found.name) && !CONTROL_FLOW_SIGNALS.has(found.name))
    .map((found) => `${found.name} (${relative(SOURCES, found.file)})`);
}

describe('every error of core-client is a Problem, but for the control-flow signals docs/contributing.md names', () => {
  it('core-client has none outside the list', () => {
    const files = sourceFiles(SOURCES).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(errorsOutsideProblem(classesOf(files))).toEqual([]);
  });

  it('fails on a new `extends Error`, and on one that extends it through another class', () => {
    const files = [
      {
        path: join(SOURCES, 'a.ts'),
        text: 'export class Fine extends Problem<"x", "y"> {}\nclass Signal extends Error {}\nexport class Refused extends Error {}',
      },
      { path: join(SOURCES, 'b.ts'), text: 'class Deeper extends Refused {}\nclass StoppedWaiting extends Error {}' },
    ];
    expect(errorsOutsideProblem(classesOf(files))).toEqual(['Signal (a.ts)', 'Refused (a.ts)', 'Deeper (b.ts)']);
  });

  it('names each control-flow signal in docs/contributing.md', () => {
    const contributing = readFileSync(CONTRIBUTING, 'utf8');
    for (const name of CONTROL_FLOW_SIGNALS) expect(contributing).toContain(`\`${name}\``);
  });
});
