import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How the operator can start core-migrate again from where they are: `core-migrate` when it is on their PATH (an
 * installed CLI), `npx core-migrate` otherwise (inside the repository, or a project that has it as a dependency).
 * npm scripts put node_modules/.bin on PATH, so the PATH the operator's own shell has is what counts: the one this
 * process got, less the folders npm added for itself.
 */
export function invocationFor(env: NodeJS.ProcessEnv): string {
  const path = env['PATH'] ?? '';
  for (const folder of path.split(delimiter)) {
    if (folder === '' || addedByNpm(folder)) continue;
    try {
      accessSync(join(folder, 'core-migrate'), constants.X_OK);
      return 'core-migrate';
    } catch {
      // not in this folder
    }
  }
  return 'npx core-migrate';
}

/** A node_modules/.bin folder, which npm and npx put in front of PATH for the process they start. */
function addedByNpm(folder: string): boolean {
  return /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(folder);
}
