import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeFirebaseJsonExport } from '../test/fixtures/exports/generate.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

interface PlanRun {
  users: number;
  fileMiB: number;
  runs: number;
  bestSeconds: number;
  bestRecordsPerSecond: number;
  /** The highest of the runs' peaks. */
  peakRssMiB: number;
}

interface ChildMeasure {
  records: number;
  seconds: number;
  peakRssKiB: number;
}

async function planOnce(file: string): Promise<ChildMeasure> {
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'plan-child.ts'), file], { cwd: root, maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as ChildMeasure;
}

/**
 * Plans synthetic Firebase exports, each size in fresh processes (so each peak RSS is that run's own) on the compiled
 * core-client, as the CLI runs it. The machine is shared: the best of a few runs is the speed, the highest peak the
 * memory. Each file is written to a temporary folder just before its runs and deleted just after (5 M users are
 * 1.6 GB).
 */
export async function benchPlan(sizes: readonly number[], runsOf: (users: number) => number): Promise<PlanRun[]> {
  await run(process.execPath, [join(root, 'node_modules/typescript7/bin/tsc'), '-p', 'core-client/tsconfig.build.json'], { cwd: root });
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-plan-'));
  const results: PlanRun[] = [];
  try {
    for (const users of sizes) {
      const file = join(folder, `firebase-${users}.json`);
      await writeFirebaseJsonExport(file, users);
      const { size } = await stat(file);
      const runs = runsOf(users);
      const measures: ChildMeasure[] = [];
      for (let index = 0; index < runs; index += 1) measures.push(await planOnce(file));
      await rm(file);
      const best = Math.min(...measures.map((measure) => measure.seconds));
      results.push({
        users,
        fileMiB: size / 2 ** 20,
        runs,
        bestSeconds: best,
        bestRecordsPerSecond: users / best,
        peakRssMiB: Math.max(...measures.map((measure) => measure.peakRssKiB)) / 1024,
      });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  console.log('\nplan: synthetic Firebase JSON export (vendor scrypt + providers), compiled core-client, one process per run');
  console.table(
    results.map((result) => ({
      users: result.users,
      'file MiB': result.fileMiB.toFixed(0),
      runs: result.runs,
      'best s': result.bestSeconds.toFixed(1),
      'records/s (best)': Math.round(result.bestRecordsPerSecond),
      'peak RSS MiB (highest)': result.peakRssMiB.toFixed(0),
    })),
  );
  return results;
}
