/**
 * `npm run demo`: the sandbox core (the strict core double) on a free port with a generated api-key and signer
 * key, a small Firebase-style export whose hashes really match known passwords, and the terminal app connected
 * to it with every setting filled in. Hashes are made here, at small costs, so nothing secret or slow is checked in.
 * The sample folder holds the signer key and known passwords: it is removed when the demo ends.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCoreDouble } from '../core-double/index.js';
import { MigrationSettingsSchema } from '../../core-client/src/settings/settings.js';
import { runInteractive } from '../../tui/src/commands/interactive.js';
import { writeDemoSample } from './demo-sample.js';
import { processIO } from '../../tui/src/io.js';

async function demo(): Promise<number> {
  const io = processIO();
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-demo-'));
  const apiKey = randomBytes(24).toString('hex');
  const signerKey = randomBytes(64);
  const core = await startCoreDouble({ apiKeys: [apiKey], signerKey: signerKey.toString('base64'), port: 0 });
  // A slower sandbox lets a recording (scripts/tmux-walk.sh) catch the push screen mid-way.
  const latencyMs = Number(io.env['CORE_MIGRATE_DEMO_LATENCY_MS'] ?? '0');
  if (latencyMs > 0) core.faults.setLatencyMs(latencyMs);
  const concurrency = io.env['CORE_MIGRATE_DEMO_CONCURRENCY'];
  try {
    const sample = await writeDemoSample(folder, signerKey);
    io.stdout.write(
      [
        `Sandbox core: ${core.url} (the core double, in memory, new api-key)`,
        `Sample files: ${folder}`,
        '  users.json (14 users: 3 hash families, third-party, some broken),',
        '  hash_config.txt (its parameters), credentials.txt (known passwords);',
        '  they hold the signer key and passwords: removed when the demo ends.',
        'Every field is filled: Enter goes on, y sends, ? shows the keys. On Hashes,',
        'check the password analytical-engine for ada@example.com (and a wrong one).',
        '',
      ].join('\n'),
    );
    const settings = MigrationSettingsSchema.parse({
      file: sample.exportPath,
      hashConfig: sample.hashConfigPath,
      core: [core.url],
      journal: join(folder, 'journal.ndjson'),
      report: join(folder, 'report.ndjson'),
      verifyCredentials: sample.credentialsPath,
      ...(concurrency === undefined ? {} : { concurrency }),
    });
    return await runInteractive({ ...io, env: { ...io.env, CORE_API_KEY: apiKey } }, { settings });
  } finally {
    await core.close();
    await rm(folder, { recursive: true, force: true });
    io.stdout.write('The sandbox core has stopped and the sample folder is removed.\n');
  }
}

process.exitCode = await demo();
