// Runs under plain Node on the compiled core-client, as plan-child.ts does: the memory of what the CLI runs. The
// journal and the delta are internals the package does not export, so they are imported from its build by path.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { parseHashConfig } from '../core-client/dist/hashes/hash-config.js';
import { planSource } from '../core-client/dist/plan/plan-source.js';
import { accountRoleOf } from '../core-client/dist/plan/field-groups.js';
import { syncDelta } from '../core-client/dist/sync/delta.js';
import { Journal, JournalError } from '../core-client/dist/journal/journal.js';
import { emptySyncCounts } from '../core-client/dist/summary/push-summary.js';
import { forecastSync } from '../core-client/dist/sync/sync-guard.js';

const hashConfig = parseHashConfig(
  'hash_config { algorithm: SCRYPT, base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==, base64_salt_separator: Bw==, rounds: 8, mem_cost: 14 }',
);
if (hashConfig instanceof Error) throw hashConfig;
const [mode, file, journalPath] = process.argv.slice(2);
if (file === undefined || journalPath === undefined) throw new Error('usage: sync-child.ts journal|delta <export> <journal>');
const options = {
  sourceFingerprint: 'bench',
  target: 'http://127.0.0.1:3567 (tenant public)',
  digestKey: (salt: string) => createHash('sha256').update(`bench-key\n${salt}`).digest(),
};
const started = performance.now();

if (mode === 'journal') {
  // The account states a push of the whole export journals, without the network (the push's own figures are apart).
  const journal = await Journal.open(journalPath, options);
  if (journal instanceof JournalError) throw journal;
  let accounts = 0;
  for await (const record of planSource(file, { hashConfig })) {
    for (const item of record.items) {
      const sourceId = item.kind === 'rejection' ? undefined : item.identity?.sourceId;
      if (item.kind === 'rejection' || item.kind === 'loginTimeWait' || sourceId === undefined) continue;
      const carrier = item.identity?.carriesSourceId === true;
      journal.recordState({
        sourceId,
        role: accountRoleOf(item),
        coreId: `core-${accounts}`,
        callId: carrier ? sourceId : `core-${accounts}`,
        createdHere: true,
        untouched: false,
        removed: false,
        digests: journal.groupDigests(item),
        whole: journal.wholeDigest(item),
      });
      accounts += 1;
    }
  }
  journal.close();
  const { size } = await stat(journalPath);
  process.stdout.write(
    JSON.stringify({ accounts, journalBytes: size, seconds: (performance.now() - started) / 1000, peakRssKiB: process.resourceUsage().maxRSS }),
  );
} else {
  const journal = await Journal.open(journalPath, { ...options, anySource: true, readOnly: true });
  if (journal instanceof JournalError) throw journal;
  const loadedSeconds = (performance.now() - started) / 1000;
  // The sync's first pass (the export's plan read once more, before anything is sent): its own time.
  await forecastSync(planSource(file, { hashConfig }), journal, { removesGone: false });
  const firstPassSeconds = (performance.now() - started) / 1000 - loadedSeconds;
  const counts = emptySyncCounts();
  let toSend = 0;
  for await (const record of syncDelta(planSource(file, { hashConfig }), journal, { deleted: 'keep', counts })) {
    toSend += record.items.filter((item) => item.kind !== 'rejection').length;
  }
  process.stdout.write(
    JSON.stringify({
      counts,
      toSend,
      indexBytes: journal.states.bytesUsed,
      accounts: journal.states.size,
      loadedSeconds,
      firstPassSeconds,
      seconds: (performance.now() - started) / 1000,
      peakRssKiB: process.resourceUsage().maxRSS,
    }),
  );
}
