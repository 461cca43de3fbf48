import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript7/bin/tsc', import.meta.url));

/**
 * Vitest global setup: compiles core-client and the CLI to dist/ first, so the tests that start the real
 * `core-migrate` binary run what the sources say now, not an older build.
 */
export default function buildBeforeTests(): void {
  for (const project of ['core-client/tsconfig.build.json', 'tui/tsconfig.build.json']) {
    execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  }
}
