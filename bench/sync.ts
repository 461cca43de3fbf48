import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeFirebaseJsonExport } from '../test/fixtures/exports/generate.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

async function child(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'sync-child.ts'), ...args], { cwd: root, maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/**
 * A sync's own cost at each size, in fresh processes on the compiled core-client: the journal's account states after
 * a push of the whole export (bytes per user), then the delta of a newer export with 1 % of its users renamed (the
 * journal loaded, the export read once, each user compared): time and peak RSS. What the 1 % then sends is network
 * work at the push's own rate (see the push figures).
 */
export async function benchSync(sizes: readonly number[]): Promise<void> {
  await run(process.execPath, [join(root, 'node_modules/typescript7/bin/tsc'), '-p', 'core-client/tsconfig.build.json'], { cwd: root });
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-sync-'));
  const rows: Record<string, string | number>[] = [];
  try {
    for (const users of sizes) {
      const monday = join(folder, 'monday.json');
      const tuesday = join(folder, 'tuesday.json');
      const journal = join(folder, 'journal.ndjson');
      await writeFirebaseJsonExport(monday, users);
      const written = await child('journal', monday, journal);
      await rm(monday);
      await writeFirebaseJsonExport(tuesday, users, { renamedEvery: 100 });
      const delta = await child('delta', tuesday, journal);
      await rm(tuesday);
      await rm(journal);
      const counts = delta['counts'] as { changed: number; unchanged: number };
      rows.push({
        users,
        accounts: Number(written['accounts']),
        'journal B/user': Math.round(Number(written['journalBytes']) / users),
        'index B/account': Math.round(Number(delta['indexBytes']) / Number(delta['accounts'])),
        'journal load s': Number(delta['loadedSeconds']).toFixed(1),
        'delta s': Number(delta['seconds']).toFixed(1),
        'users/s': Math.round(users / Number(delta['seconds'])),
        changed: counts.changed,
        unchanged: counts.unchanged,
        'to send': Number(delta['toSend']),
        'peak RSS MiB': (Number(delta['peakRssKiB']) / 1024).toFixed(0),
      });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  console.log('\nsync: the delta of a newer export with 1 % renamed, against the journal of a push of the older one (compiled core-client)');
  console.table(rows);
}
