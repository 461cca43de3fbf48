import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CoreClient } from '../core-client/src/http/core-client.js';
import type { ImportOperation } from '../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../core-client/src/plan/plan-source.js';
import { defaultConcurrencyLimits } from '../core-client/src/push/concurrency.js';
import { runPush } from '../core-client/src/push/engine.js';
import { defaultIdentityOptions } from '../core-client/src/identity/identity-options.js';
import { Secret } from '../core-client/src/secret.js';
import { writeFirebaseJsonExport } from '../test/fixtures/exports/generate.js';
import { startDoubleProcess } from './push.js';

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
        'first pass s': Number(delta['firstPassSeconds']).toFixed(1),
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

const API_KEY = 'bench-api-key-0123456789-abcdefghij';

function benchOperations(count: number, renamedEvery: number): ImportOperation[] {
  const operations: ImportOperation[] = [];
  for (let line = 1; line <= count; line += 1) {
    const email = `user${line}@example.com`;
    const renamed = renamedEvery > 0 && line % renamedEvery === 0;
    operations.push({
      kind: 'passwordImport',
      operationKey: `L${line}#pw`,
      location: { file: 'bench', line },
      email,
      family: 'bcrypt',
      body: { email, passwordHash: `$2a$10$${String(line).padStart(53, 'N')}` },
      exportedCredential: `$2a$10$${String(line).padStart(53, 'N')}`,
      warnings: [],
      identity: {
        sourceId: `old-${line}`,
        system: 'bench',
        carriesSourceId: true,
        emailVerified: true,
        disabled: false,
        profile: { displayName: renamed ? `User ${line} (renamed)` : `User ${line}` },
      },
    });
  }
  return operations;
}

async function* recordsOf(operations: ImportOperation[]): AsyncGenerator<PlannedRecord> {
  for (const operation of operations) yield { location: operation.location, items: [operation] };
}

/**
 * The whole of a sync against a full push of the same users, against the core double in its own process at 10 ms
 * latency with every identity step on: the push of the export, then the sync of a newer one with 1 % renamed.
 */
export async function benchSyncAgainstPush(users: number): Promise<void> {
  const double = await startDoubleProcess();
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-sync-time-'));
  const rows: Record<string, string | number>[] = [];
  try {
    await double.setLatency(10);
    const client = new CoreClient({ baseUrl: double.url, apiKey: new Secret(API_KEY), connections: defaultConcurrencyLimits.max });
    const journalPath = join(folder, 'journal.ndjson');
    try {
      const runs: { name: string; sync: boolean; operations: ImportOperation[] }[] = [
        { name: 'push of the export', sync: false, operations: benchOperations(users, 0) },
        { name: 'sync of a newer export, 1 % renamed', sync: true, operations: benchOperations(users, 100) },
      ];
      for (const run of runs) {
        const started = performance.now();
        const summary = await runPush({
          records: recordsOf(run.operations),
          ...(run.sync ? { mode: 'sync' as const, sync: { deleted: 'keep' as const, firstPass: () => recordsOf(run.operations) } } : { total: users }),
          client,
          identity: defaultIdentityOptions,
          sourceFingerprint: `sha256:bench-sync-${run.sync ? 'tuesday' : 'monday'}`,
          journalPath,
          reportPath: join(folder, `report-${run.sync ? 'sync' : 'push'}`),
        });
        const seconds = (performance.now() - started) / 1000;
        rows.push({ run: run.name, users, seconds: seconds.toFixed(1), 'users/s': Math.round(users / seconds), changed: summary.sync?.changed ?? users });
      }
    } finally {
      await client.close();
    }
  } finally {
    await double.stop();
    await rm(folder, { recursive: true, force: true });
  }
  console.log('\nsync against a full push of the same users (core double in its own process, 10 ms latency, identity steps on)');
  console.table(rows);
}
