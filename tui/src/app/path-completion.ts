import { readdir } from 'node:fs/promises';
import { dirname, basename, resolve, sep } from 'node:path';

export interface PathCompletion {
  /** The input extended as far as every candidate agrees (a directory gets its trailing separator). */
  completed: string;
  /** Entry names that still match, directories with a trailing separator, at most `limit`. */
  candidates: string[];
  more: number;
}

/**
 * Shell-like completion of a typed path, relative to `cwd`: hidden entries only when the typed name starts with a dot.
 * Unreadable or missing directories give no candidates rather than an error, as a shell does.
 */
export async function completePath(input: string, cwd: string, limit = 6): Promise<PathCompletion> {
  const endsWithSeparator = input.endsWith('/') || input.endsWith(sep);
  const typedDirectory = endsWithSeparator ? input : dirname(input);
  const typedName = endsWithSeparator ? '' : basename(input);
  const typedHead = input.slice(0, input.length - typedName.length);
  let entries: { name: string; directory: boolean }[];
  try {
    const dirents = await readdir(resolve(cwd, typedDirectory === '' ? '.' : typedDirectory), { withFileTypes: true });
    entries = dirents.map((entry) => ({ name: entry.name, directory: entry.isDirectory() }));
  } catch {
    return { completed: input, candidates: [], more: 0 };
  }
  const matching = entries
    .filter((entry) => entry.name.startsWith(typedName) && (typedName.startsWith('.') || !entry.name.startsWith('.')))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((entry) => (entry.directory ? `${entry.name}/` : entry.name));
  if (matching.length === 0) return { completed: input, candidates: [], more: 0 };
  const shared = commonPrefix(matching);
  const completed = shared.length > typedName.length ? `${typedHead}${shared}` : input;
  return { completed, candidates: matching.slice(0, limit), more: Math.max(0, matching.length - limit) };
}

function commonPrefix(values: string[]): string {
  let prefix = values[0] ?? '';
  for (const value of values) {
    while (!value.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
