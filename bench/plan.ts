import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeFirebaseJsonExport } from '../test/fixtures/exports/generate.js';

const run = promisify(execFile);

interface PlanRun {
  users: number;
  fileMiB: number;
  seconds: number;
  recordsPerSecond: number;
  peakRssMiB: number;
}

/**
 * Plans synthetic Firebase exports of growing size, each in a fresh process so its peak RSS is its own,
 * and prints records/s and peak memory. Flat memory shows as the same peak for 100k and 1M users.
 */
export async function benchPlan(sizes: number[] = [100_000, 1_000_000]): Promise<PlanRun[]> {
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-plan-'));
  const results: PlanRun[] = [];
  try {
    for (const users of sizes) {
      const file = join(folder, `firebase-${users}.json`);
      await writeFirebaseJsonExport(file, users);
      const { size } = await stat(file);
      const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', join(import.meta.dirname, 'plan-child.ts'), file], {
        maxBuffer: 1 << 20,
      });
      const measured = JSON.parse(stdout) as { records: number; seconds: number; peakRssKiB: number };
      results.push({
        users,
        fileMiB: size / 2 ** 20,
        seconds: measured.seconds,
        recordsPerSecond: measured.records / measured.seconds,
        peakRssMiB: measured.peakRssKiB / 1024,
      });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  console.log('\nplan: synthetic Firebase JSON export (vendor scrypt + providers), one process per size');
  console.table(
    results.map((result) => ({
      users: result.users,
      'file MiB': result.fileMiB.toFixed(0),
      seconds: result.seconds.toFixed(1),
      'records/s': Math.round(result.recordsPerSecond),
      'peak RSS MiB': result.peakRssMiB.toFixed(0),
    })),
  );
  return results;
}
