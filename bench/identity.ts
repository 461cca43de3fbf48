import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreClient } from '../core-client/src/http/core-client.js';
import { Secret } from '../core-client/src/secret.js';
import { defaultConcurrencyLimits } from '../core-client/src/push/concurrency.js';
import { runPush } from '../core-client/src/push/engine.js';
import { contractOnlyIdentityOptions, defaultIdentityOptions, type IdentityOptions } from '../core-client/src/identity/identity-options.js';
import type { ImportOperation } from '../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../core-client/src/plan/plan-source.js';
import { startDoubleProcess } from './push.js';

const API_KEY = 'bench-api-key-0123456789-abcdefghij';
const LATENCY_MS = 10;
const ROUNDS = 2;

/**
 * Users per second with and without the identity steps (issue 13), against the core double in its own process at
 * 10 ms latency: each user's steps run one after another (lookup, import, mapping, verification token and use,
 * metadata: 6 requests instead of 1), users in parallel under the same adaptive engine and journal.
 */
export async function benchIdentity(users: number): Promise<void> {
  const double = await startDoubleProcess();
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-identity-'));
  const contenders: { name: string; identity: IdentityOptions }[] = [
    { name: 'contract only (--no-keep-ids --no-verify-emails --no-metadata --existing replace)', identity: contractOnlyIdentityOptions },
    { name: 'with identity steps (defaults)', identity: defaultIdentityOptions },
  ];
  const rows: Record<string, string | number>[] = [];
  let batch = 0;
  try {
    await double.setLatency(LATENCY_MS);
    for (const contender of contenders) {
      let best = 0;
      let requests = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        await double.reset();
        batch += 1;
        const operations = identityOperations(`i${batch}`, users);
        const client = new CoreClient({ baseUrl: double.url, apiKey: new Secret(API_KEY), connections: defaultConcurrencyLimits.max });
        const started = performance.now();
        try {
          const summary = await runPush({
            records: records(operations),
            total: operations.length,
            client,
            identity: contender.identity,
            sourceFingerprint: 'sha256:bench-identity',
            journalPath: join(folder, `journal-${batch}`),
            reportPath: join(folder, `report-${batch}`),
          });
          if (summary.imported !== users) throw new Error(`identity bench: ${summary.imported} of ${users} imported (${JSON.stringify(summary)})`);
          requests = contender.identity === contractOnlyIdentityOptions ? users : users * 6;
        } finally {
          await client.close();
        }
        best = Math.max(best, users / ((performance.now() - started) / 1000));
      }
      rows.push({
        'latency ms': LATENCY_MS,
        contender: contender.name,
        users,
        requests,
        'users/s': Math.round(best),
        'req/s': Math.round((best * requests) / users),
      });
    }
  } finally {
    await double.stop();
    await rm(folder, { recursive: true, force: true });
  }
  console.log(`\nidentity steps: users per second against the core double (own process), best of ${ROUNDS}`);
  console.table(rows);
}

function identityOperations(tag: string, count: number): ImportOperation[] {
  const operations: ImportOperation[] = [];
  for (let line = 1; line <= count; line += 1) {
    const email = `${tag}-user${line}@example.com`;
    operations.push({
      kind: 'passwordImport',
      operationKey: `bench-${tag}:L${line}#pw`,
      location: { file: `bench-${tag}`, line },
      email,
      family: 'bcrypt',
      body: { email, passwordHash: `$2a$10$${String(line).padStart(53, 'N')}` },
      exportedCredential: `$2a$10$${String(line).padStart(53, 'N')}`,
      warnings: [],
      identity: {
        sourceId: `${tag}-old-${line}`,
        system: 'bench',
        carriesSourceId: true,
        emailVerified: true,
        disabled: false,
        profile: { displayName: `User ${line}` },
      },
    });
  }
  return operations;
}

async function* records(operations: ImportOperation[]): AsyncGenerator<PlannedRecord> {
  for (const operation of operations) yield { location: operation.location, items: [operation] };
}
