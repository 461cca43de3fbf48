import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../tui/bin/core-migrate.js', import.meta.url));

async function milliseconds(args: readonly string[]): Promise<number> {
  const started = performance.now();
  await run(process.execPath, args, { cwd: root });
  return performance.now() - started;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Start-up of the compiled CLI (built first): the median of several runs, beside a bare Node for scale. */
export async function benchStartup(runs = 15): Promise<void> {
  await run('npm', ['run', 'build'], { cwd: root });
  const cases: [string, string[]][] = [
    ['node -e 0 (no CLI, for scale)', ['-e', '0']],
    ['core-migrate --version', [bin, '--version']],
    ['core-migrate --help', [bin, '--help']],
    ['core-migrate plan --help', [bin, 'plan', '--help']],
    ['core-migrate push --help', [bin, 'push', '--help']],
    // How the bin started before it was compiled: tsx compiling the sources at every start.
    [
      '--version via tsx, warm cache (former bin)',
      ['--conditions=source', '--import', 'tsx', '-e', "import('./tui/src/cli.ts').then((cli) => cli.main(['--version']))"],
    ],
  ];
  console.log(`\nStart-up (compiled CLI, median of ${runs} runs, Node ${process.versions.node})`);
  for (const [label, args] of cases) {
    await milliseconds(args);
    const times: number[] = [];
    for (let index = 0; index < runs; index += 1) times.push(await milliseconds(args));
    console.log(`  ${label.padEnd(40)} ${median(times).toFixed(0).padStart(5)} ms`);
  }
}
