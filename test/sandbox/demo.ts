/**
 * `npm run demo`: the sandbox core (the strict core double) on a free port with a generated api-key and signer
 * key, a small Firebase-style export whose hashes really match known passwords, and the terminal app connected
 * to it. Hashes are made here, at small costs, so nothing secret or slow is checked in.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCoreDouble } from '../core-double/index.js';
import { Secret } from '../../core-client/src/secret.js';
import { runInteractive } from '../../tui/src/commands/interactive.js';
import { scryptParameters, writeDemoSample } from './demo-sample.js';
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
  try {
    const sample = await writeDemoSample(folder, signerKey);
    io.stdout.write(
      [
        `Sandbox core: ${core.url} (the core double, in memory, new api-key)`,
        `Sample files: ${folder}`,
        '  users.json (14 users: 3 hash families, third-party, some broken),',
        '  hash_config.txt (its hashing parameters), credentials.txt (known passwords)',
        'Fields are prefilled: Enter goes on, Esc goes back. On Hashes, type the password',
        'analytical-engine for ada@example.com to check it (try a wrong one too).',
        '',
      ].join('\n'),
    );
    const env = { ...io.env, CORE_API_KEY: apiKey, CORE_URL: core.url };
    return await runInteractive(
      { ...io, env },
      {
        defaults: {
          source: { path: sample.exportPath },
          hashes: {
            memCost: String(scryptParameters.memCost),
            rounds: String(scryptParameters.rounds),
            saltSeparator: scryptParameters.saltSeparator,
            signerKey: new Secret(signerKey.toString('base64')),
            checkEmail: 'ada@example.com',
          },
          review: {
            journalPath: join(folder, 'journal.ndjson'),
            reportPath: join(folder, 'report.ndjson'),
            credentialsPath: sample.credentialsPath,
          },
        },
      },
    );
  } finally {
    await core.close();
    io.stdout.write(`The sandbox core has stopped; the sample files stay in ${folder}\n`);
  }
}

process.exitCode = await demo();
